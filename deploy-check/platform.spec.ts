import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { validationErrorOf } from './kubernetes-schemas';
import {
  build,
  configMapNameSuffix,
  matchesSelector,
  only,
  podLabelsOf,
  podSpecOf,
  readYaml,
  ROOT,
  type LabelSelector,
  type Manifest,
  type PodSpec,
} from './manifests';
import { exportedMetrics, unknownSeriesOf } from './metric-names';
import { allows } from './network-policies';
import { secretFilesOf } from './secret-files';
import { SERVICES } from './service-settings';

const OVERLAYS = ['dev', 'prod'] as const;
const NAMESPACE = 'agency-platform';
const K8S = join(ROOT, 'k8s');

/** Each service's public prefixes on the shared host: disjoint, so one origin serves all three. */
const PUBLIC_PATHS: Record<string, { path: string; pathType: 'Prefix' | 'Exact' }[]> = {
  'main-api': [
    { path: '/v1', pathType: 'Prefix' },
    // RFC 8414 discovery from the issuer https://<host>.
    { path: '/.well-known/oauth-authorization-server', pathType: 'Exact' },
  ],
  // /v2 but /v2/integrations: the longer prefix wins (routedTo below).
  planner: [
    { path: '/allocation', pathType: 'Prefix' },
    { path: '/v2', pathType: 'Prefix' },
  ],
  integrations: [{ path: '/v2/integrations', pathType: 'Prefix' }],
};

/** What every service serves that must never be reachable from outside the cluster. */
const INTERNAL_PATHS = [
  '/docs',
  '/docs/',
  '/docs-json',
  '/health/live',
  '/health/ready',
  '/health/ready/self',
  '/metrics',
];

const RENDERED = Object.fromEntries(
  OVERLAYS.map((overlay) => [
    overlay,
    Object.fromEntries(
      SERVICES.map((service) => [service.name, build(join(K8S, 'overlays', overlay, service.name))]),
    ),
  ]),
) as Record<(typeof OVERLAYS)[number], Record<string, Manifest[]>>;

const NAMESPACE_MANIFESTS = readYaml(join(K8S, 'namespace.yaml'));

function configOf(manifests: Manifest[]): Record<string, string> {
  return only(manifests, 'ConfigMap').data as Record<string, string>;
}

function imageTagOf(deployment: Manifest): string {
  return podSpecOf(deployment)!.containers[0].image.split(':')[1] ?? '';
}

/**
 * Why an environment's three services would not serve a browser app on one host: JWT_ISSUER and
 * CORS_ALLOWED_ORIGINS missing, not a URL / not origins, or different between the services. Empty
 * when there is nothing wrong.
 */
export function issuerAndCorsProblems(environment: Record<string, Manifest[]>): string[] {
  const problems: string[] = [];
  const issuers = new Set<string>();
  for (const [name, manifests] of Object.entries(environment)) {
    const service = SERVICES.find((candidate) => candidate.name === name)!;
    const config = configOf(manifests);
    const issuer = config.JWT_ISSUER;
    const origins = config.CORS_ALLOWED_ORIGINS;
    if (!issuer) {
      problems.push(`${name}: JWT_ISSUER is not set (the default is no URL: OAuth libraries refuse it)`);
    } else {
      issuers.add(issuer);
      const url = URL.canParse(issuer) ? new URL(issuer) : undefined;
      if (
        !url ||
        url.protocol !== 'https:' ||
        url.pathname !== '/' ||
        url.search ||
        url.hash ||
        issuer.endsWith('/')
      ) {
        problems.push(`${name}: JWT_ISSUER must be https://<host>, main-api's public URL, not ${issuer}`);
      }
      const refusal = service.refusalOf('JWT_ISSUER', issuer);
      if (refusal) {
        problems.push(`${name}: ${refusal}`);
      }
    }
    if (!origins) {
      problems.push(`${name}: CORS_ALLOWED_ORIGINS is not set (browsers would be refused)`);
    } else {
      const refusal = service.refusalOf('CORS_ALLOWED_ORIGINS', origins);
      if (refusal) {
        problems.push(`${name}: ${refusal}`);
      }
      for (const origin of origins.split(',')) {
        if (!URL.canParse(origin) || new URL(origin).origin !== origin) {
          problems.push(`${name}: CORS_ALLOWED_ORIGINS holds ${origin}, which is no origin`);
        }
      }
    }
  }
  if (issuers.size > 1) {
    problems.push(`the services disagree on JWT_ISSUER: ${[...issuers].join(', ')}`);
  }
  return problems;
}

interface IngressPath {
  path: string;
  pathType: string;
  backend: { service: { name: string; port: { name?: string; number?: number } } };
}

interface IngressSpec {
  ingressClassName?: string;
  tls?: { hosts: string[]; secretName: string }[];
  rules: { host: string; http: { paths: IngressPath[] } }[];
}

/** Whether an Ingress path matches a request path (networking.k8s.io/v1: Prefix is element-wise). */
function ingressMatches(rule: { path: string; pathType: string }, requestPath: string): boolean {
  if (rule.pathType === 'Exact') {
    return requestPath === rule.path;
  }
  const prefix = rule.path.replace(/\/$/, '');
  return requestPath === prefix || requestPath.startsWith(`${prefix}/`);
}

function openApiPaths(service: string): string[] {
  const document = JSON.parse(readFileSync(join(ROOT, 'openapi', `${service}.json`), 'utf8')) as {
    paths: Record<string, unknown>;
  };
  // A template `{id}` stands for one path segment.
  return Object.keys(document.paths).map((path) => path.replace(/\{[^}]+\}/g, 'x'));
}

/** Every pod template of an environment: the Deployments' and the Jobs'. */
function podTemplates(manifests: Manifest[]): Manifest[] {
  return manifests.filter((manifest) => manifest.kind === 'Deployment' || manifest.kind === 'Job');
}

const selectorOf = (manifest: Manifest): LabelSelector => {
  const spec = manifest.spec as { selector: LabelSelector | Record<string, string> };
  return manifest.kind === 'Service'
    ? { matchLabels: spec.selector as Record<string, string> }
    : spec.selector;
};

/** `kubectl kustomize` with Kustomize 5 or newer, if installed: the real renderer. */
function kubectlKustomize(): ((directory: string) => Manifest[]) | undefined {
  try {
    const version = JSON.parse(
      execFileSync('kubectl', ['version', '--client', '-o', 'json'], { encoding: 'utf8' }),
    ) as {
      kustomizeVersion?: string;
    };
    if (!/^v([5-9]|\d{2,})\./.test(version.kustomizeVersion ?? '')) {
      return undefined;
    }
  } catch {
    return undefined;
  }
  return (directory) =>
    parseAllDocuments(execFileSync('kubectl', ['kustomize', directory], { encoding: 'utf8' }), {
      version: '1.1',
    })
      .map((document) => document.toJS() as Manifest)
      .filter((manifest) => manifest !== null);
}

const kustomize = kubectlKustomize();

describe.each(OVERLAYS)('Kubernetes, overlay %s: a browser app on one host', (overlay) => {
  const environment = RENDERED[overlay];
  const everything = [...NAMESPACE_MANIFESTS, ...Object.values(environment).flat()];
  const ingresses = everything.filter((manifest) => manifest.kind === 'Ingress');

  it('sets JWT_ISSUER (https://<host>, the same on the three services) and CORS_ALLOWED_ORIGINS (origins) in every service', () => {
    expect(issuerAndCorsProblems(environment)).toEqual([]);
  });

  it("routes each service's own prefixes on the issuer's host, with TLS, buffering off, through its Service's http port", () => {
    const host = new URL(configOf(environment['main-api']).JWT_ISSUER ?? 'https://missing').host;
    for (const service of SERVICES) {
      const ingress = only(environment[service.name], 'Ingress');
      const spec = ingress.spec as IngressSpec;
      expect(validationErrorOf(ingress)).toBeUndefined();
      expect(spec.ingressClassName).toEqual(expect.any(String));
      expect(spec.rules.map((rule) => rule.host)).toEqual([host]);
      expect(spec.tls).toEqual([{ hosts: [host], secretName: expect.any(String) }]);
      expect(ingress.metadata.annotations?.['nginx.ingress.kubernetes.io/proxy-buffering']).toBe('off');
      const paths = spec.rules[0]?.http.paths ?? [];
      expect(paths.map(({ path, pathType }) => ({ path, pathType }))).toEqual(PUBLIC_PATHS[service.name]);
      const serviceObject = only(environment[service.name], 'Service');
      const ports = (serviceObject.spec as { ports: { name: string; port: number }[] }).ports;
      for (const path of paths) {
        expect(path.backend.service.name).toBe(serviceObject.metadata.name);
        expect(ports.map((port) => port.name)).toContain(path.backend.service.port.name);
        expect(path.backend.service.port.name).toBe('http');
      }
    }
    // One certificate for the host: the three Ingresses name the same Secret.
    expect(new Set(ingresses.map((ingress) => (ingress.spec as IngressSpec).tls?.[0]?.secretName)).size).toBe(
      1,
    );
  });

  it('sends every operation of a service to it and to no other, and never /docs, /health or /metrics', () => {
    // The Ingress with the longest matching path takes the request (Ingress and Gateway API alike).
    const routedTo = (requestPath: string) => {
      const matches = ingresses.flatMap((ingress) =>
        (ingress.spec as IngressSpec).rules[0]?.http.paths
          .filter((rule) => ingressMatches(rule, requestPath))
          .map((rule) => ({ name: ingress.metadata.name, length: rule.path.replace(/\/$/, '').length })),
      );
      const longest = Math.max(...matches.map((match) => match.length));
      return [...new Set(matches.filter((match) => match.length === longest).map((match) => match.name))];
    };
    for (const service of SERVICES) {
      for (const path of openApiPaths(service.name).filter(
        (candidate) => !candidate.startsWith('/health/'),
      )) {
        expect({ path, routedTo: routedTo(path) }).toEqual({ path, routedTo: [service.name] });
      }
    }
    for (const path of INTERNAL_PATHS) {
      expect({ path, routedTo: routedTo(path) }).toEqual({ path, routedTo: [] });
    }
  });

  it("can read the signing key: every secret a container mounts is readable by the container's user", () => {
    const files = podTemplates(everything).flatMap((workload) =>
      secretFilesOf(podSpecOf(workload)!).map((file) => ({ workload: workload.metadata.name, ...file })),
    );
    expect(files.map((file) => file.workload)).toContain('main-api');
    for (const file of files) {
      expect(file).toMatchObject({ readable: true });
    }
    // The kubelet writes the key root:1000 0440: readable by uid 1000 through its group, by no one else.
    expect(files.find((file) => file.volume === 'signing-key')).toMatchObject({
      mode: 0o440,
      owner: { uid: 0, gid: 1000 },
      user: { uid: 1000 },
    });
  });

  it("selects only the serving pods: each Service, disruption budget and Deployment (the autoscaler's) matches its API's pods, never a migration's or the worker's", () => {
    const templates = podTemplates(everything);
    const selecting = everything.filter((manifest) =>
      ['Service', 'PodDisruptionBudget', 'Deployment'].includes(manifest.kind),
    );
    for (const selector of selecting) {
      const matched = templates
        .filter((template) => matchesSelector(selectorOf(selector), podLabelsOf(template)))
        .map((template) => `${template.kind}/${template.metadata.name}`);
      const own =
        selector.kind === 'Deployment'
          ? selector.metadata.name
          : selector.metadata.name.replace(/-worker$/, '');
      expect({ selector: `${selector.kind}/${selector.metadata.name}`, matched }).toEqual({
        selector: `${selector.kind}/${selector.metadata.name}`,
        matched: [`Deployment/${own}`],
      });
    }
    for (const autoscaler of everything.filter((manifest) => manifest.kind === 'HorizontalPodAutoscaler')) {
      const target = (autoscaler.spec as { scaleTargetRef: { name: string } }).scaleTargetRef.name;
      expect(podLabelsOf(only(everything, 'Deployment', target))).toMatchObject({
        'app.kubernetes.io/component': 'api',
      });
    }
  });

  it('names each ConfigMap after its data (a change of settings rolls the pods), and the pods use that name', () => {
    for (const service of SERVICES) {
      const manifests = environment[service.name];
      const configMap = only(manifests, 'ConfigMap');
      const data = configMap.data as Record<string, string>;
      expect(configMap.metadata.name).toBe(`${service.name}-${configMapNameSuffix(data)}`);
      expect(configMapNameSuffix({ ...data, LOG_LEVEL: 'warn' })).not.toBe(configMapNameSuffix(data));
      for (const deployment of manifests.filter((manifest) => manifest.kind === 'Deployment')) {
        expect(podSpecOf(deployment)?.containers[0]?.envFrom).toEqual([
          { configMapRef: { name: configMap.metadata.name } },
        ]);
      }
    }
  });

  it("runs one migration Job per release: named after the image's tag, removed after a day, first in an Argo CD sync", () => {
    for (const service of SERVICES) {
      const manifests = environment[service.name];
      const job = only(manifests, 'Job');
      const deployment = only(manifests, 'Deployment', service.name);
      const tag = imageTagOf(deployment);
      expect(job.metadata.name).toBe(`${service.name}-migrate-${tag}`);
      // A DNS label: the Job's name is also its pods' job-name label value.
      expect(job.metadata.name).toMatch(/^[a-z0-9]([a-z0-9.-]{0,61}[a-z0-9])?$/);
      expect((job.spec as { ttlSecondsAfterFinished?: number }).ttlSecondsAfterFinished).toBeGreaterThan(0);
      expect(job.metadata.annotations).toMatchObject({
        'argocd.argoproj.io/hook': 'PreSync',
        'argocd.argoproj.io/hook-delete-policy': 'BeforeHookCreation',
      });
      // Its pod template changes only with the image: it reads no ConfigMap (whose name is a hash).
      expect(podSpecOf(job)?.containers.flatMap((container) => container.envFrom ?? [])).toEqual([]);
      // Its network policy exists before it starts under Argo CD, too.
      const policy = only(manifests, 'NetworkPolicy', `${service.name}-migrate`);
      expect(policy.metadata.annotations).toMatchObject({
        'argocd.argoproj.io/hook': 'PreSync',
        'argocd.argoproj.io/sync-wave': '-1',
      });
      expect(policy.metadata.labels?.['app.kubernetes.io/component']).toBe('migration');
    }
  });

  it('spreads every Deployment over zones and nodes without ever blocking scheduling', () => {
    for (const deployment of everything.filter((manifest) => manifest.kind === 'Deployment')) {
      const constraints =
        (
          podSpecOf(deployment) as PodSpec & {
            topologySpreadConstraints?: {
              topologyKey: string;
              whenUnsatisfiable: string;
              labelSelector: LabelSelector;
            }[];
          }
        ).topologySpreadConstraints ?? [];
      expect(constraints.map((constraint) => constraint.topologyKey).sort()).toEqual([
        'kubernetes.io/hostname',
        'topology.kubernetes.io/zone',
      ]);
      for (const constraint of constraints) {
        expect(constraint.whenUnsatisfiable).toBe('ScheduleAnyway');
        // Counts this Deployment's pods, no other's.
        expect(
          podTemplates(everything)
            .filter((template) => matchesSelector(constraint.labelSelector, podLabelsOf(template)))
            .map((template) => template.metadata.name),
        ).toEqual([deployment.metadata.name]);
      }
    }
  });

  it('serves /metrics on METRICS_PORT, a named port of every pod, open to Prometheus only', () => {
    for (const workload of everything.filter((manifest) => manifest.kind === 'Deployment')) {
      const name = workload.metadata.name.replace(/-worker$/, '');
      const port = Number(configOf(environment[name]).METRICS_PORT);
      const service = SERVICES.find((candidate) => candidate.name === name)!;
      expect(service.refusalOf('METRICS_PORT', String(port))).toBeUndefined();
      expect(port).not.toBe(service.port);
      expect(podSpecOf(workload)?.containers[0]?.ports).toContainEqual({
        name: 'metrics',
        containerPort: port,
      });
      const pod = { namespace: NAMESPACE, labels: podLabelsOf(workload) };
      const policies = everything.filter((manifest) => manifest.kind === 'NetworkPolicy');
      expect(allows(policies, pod, 'Ingress', { peer: { namespace: 'monitoring' }, port })).toBe(true);
      expect(allows(policies, pod, 'Ingress', { peer: { namespace: 'ingress-nginx' }, port })).toBe(false);
      expect(allows(policies, pod, 'Ingress', { peer: { namespace: NAMESPACE, labels: {} }, port })).toBe(
        false,
      );
    }
  });
});

describe('Kubernetes: what the platform checks catch', () => {
  const deployment = only(RENDERED.prod['main-api'], 'Deployment', 'main-api');

  it('the key check refuses the shipped mount (0400, no fsGroup) and 0440 without fsGroup', () => {
    const withPod = (change: (pod: PodSpec) => void) => {
      const pod = structuredClone(podSpecOf(deployment)!);
      change(pod);
      return secretFilesOf(pod).find((file) => file.volume === 'signing-key')?.readable;
    };
    const secretOf = (pod: PodSpec) =>
      pod.volumes!.find((volume) => volume.name === 'signing-key')!.secret as {
        defaultMode: number;
      };
    const withoutFsGroup = (pod: PodSpec) => {
      delete (pod.securityContext as { fsGroup?: number }).fsGroup;
    };

    expect(withPod(() => undefined)).toBe(true);
    expect(
      withPod((pod) => {
        withoutFsGroup(pod);
        secretOf(pod).defaultMode = 0o400;
      }),
    ).toBe(false);
    expect(withPod(withoutFsGroup)).toBe(false);
    expect(withPod((pod) => (secretOf(pod).defaultMode = 0o400))).toBe(false);
    expect(withPod((pod) => (secretOf(pod).defaultMode = 0o444))).toBe(true);
  });

  it('the issuer check refuses an overlay without JWT_ISSUER or CORS_ALLOWED_ORIGINS, or with two issuers', () => {
    const without = (key: string, service = 'planner') => {
      const environment = structuredClone(RENDERED.prod);
      delete (only(environment[service], 'ConfigMap').data as Record<string, string>)[key];
      return issuerAndCorsProblems(environment);
    };
    const other = structuredClone(RENDERED.prod);
    (only(other.integrations, 'ConfigMap').data as Record<string, string>).JWT_ISSUER =
      'https://other.example';

    expect(without('JWT_ISSUER')).toEqual([
      'planner: JWT_ISSUER is not set (the default is no URL: OAuth libraries refuse it)',
    ]);
    expect(without('CORS_ALLOWED_ORIGINS', 'main-api')).toEqual([
      'main-api: CORS_ALLOWED_ORIGINS is not set (browsers would be refused)',
    ]);
    expect(issuerAndCorsProblems(other)).toEqual([
      expect.stringMatching(/^the services disagree on JWT_ISSUER/),
    ]);
  });

  it('the metric check refuses a name or label no service exports', () => {
    const metrics = exportedMetrics();
    expect(
      unknownSeriesOf('rate(http_request_duration_seconds_count{status_code="500"}[5m])', metrics),
    ).toEqual([]);
    expect(unknownSeriesOf('delivery_backlog_total{namespace="x"}', metrics)).toEqual([
      'delivery_backlog_total is not exported by any service',
    ]);
    expect(unknownSeriesOf('main_api_client_breaker_state{status="open"}', metrics)).toEqual([
      'main_api_client_breaker_state has no label status',
    ]);
  });
});

interface PrometheusRuleSpec {
  groups: {
    name: string;
    rules: {
      alert: string;
      expr: string;
      for: string;
      labels: { severity: string };
      annotations: Record<string, string>;
    }[];
  }[];
}

describe('Kubernetes: monitoring (k8s/monitoring)', () => {
  const manifests = build(join(K8S, 'monitoring'));
  const metrics = exportedMetrics();
  const prod = Object.values(RENDERED.prod).flat();

  it('holds a ServiceMonitor for the three APIs and a PodMonitor for the worker, on their metrics ports', () => {
    const serviceMonitor = only(manifests, 'ServiceMonitor');
    const spec = serviceMonitor.spec as {
      selector: LabelSelector;
      endpoints: { port: string; path: string }[];
    };
    expect(serviceMonitor.apiVersion).toBe('monitoring.coreos.com/v1');
    expect(serviceMonitor.metadata.namespace).toBe(NAMESPACE);
    const services = prod.filter(
      (manifest) =>
        manifest.kind === 'Service' && matchesSelector(spec.selector, manifest.metadata.labels ?? {}),
    );
    expect(services.map((service) => service.metadata.name).sort()).toEqual(
      SERVICES.map((service) => service.name).sort(),
    );
    for (const service of services) {
      const ports = (service.spec as { ports: { name: string }[] }).ports.map((port) => port.name);
      expect(ports).toEqual(expect.arrayContaining(spec.endpoints.map((endpoint) => endpoint.port)));
    }
    expect(spec.endpoints).toEqual([expect.objectContaining({ port: 'metrics', path: '/metrics' })]);

    const podMonitor = only(manifests, 'PodMonitor');
    const podSpec = podMonitor.spec as { selector: LabelSelector; podMetricsEndpoints: { port: string }[] };
    const pods = prod.filter(
      (manifest) =>
        manifest.kind === 'Deployment' && matchesSelector(podSpec.selector, podLabelsOf(manifest)),
    );
    expect(pods.map((pod) => pod.metadata.name)).toEqual(['integrations-worker']);
    expect(podSpecOf(pods[0])?.containers[0]?.ports?.map((port) => port.name)).toContain(
      podSpec.podMetricsEndpoints[0]?.port,
    );
  });

  it('alerts on error rate, p99 latency, breaker open, pool saturation, delivery backlog age and failing revocation checks, each on metrics the services export', () => {
    const rule = only(manifests, 'PrometheusRule');
    expect(rule.apiVersion).toBe('monitoring.coreos.com/v1');
    const rules = (rule.spec as PrometheusRuleSpec).groups.flatMap((group) => group.rules);
    expect(rules.map((candidate) => candidate.alert).sort()).toEqual(
      [
        'AgencyPlatformHighErrorRate',
        'AgencyPlatformHighLatencyP99',
        'AgencyPlatformMainApiBreakerOpen',
        'AgencyPlatformDatabasePoolSaturated',
        'AgencyPlatformDeliveryBacklogOld',
        'AgencyPlatformRevocationChecksFailing',
      ].sort(),
    );
    for (const candidate of rules) {
      expect({ alert: candidate.alert, unknown: unknownSeriesOf(candidate.expr, metrics) }).toEqual({
        alert: candidate.alert,
        unknown: [],
      });
      expect(candidate.for).toMatch(/^\d+[smh]$/);
      expect(['warning', 'critical']).toContain(candidate.labels.severity);
      expect(candidate.annotations).toEqual(
        expect.objectContaining({ summary: expect.any(String), description: expect.any(String) }),
      );
    }
  });

  it("ships a Grafana dashboard (a ConfigMap Grafana's sidecar loads) whose every query names exported metrics", () => {
    const configMap = only(manifests, 'ConfigMap');
    expect(configMap.metadata.labels).toMatchObject({ grafana_dashboard: '1' });
    expect(validationErrorOf(configMap)).toBeUndefined();
    const dashboard = JSON.parse((configMap.data as Record<string, string>)['grafana-dashboard.json']) as {
      uid: string;
      panels: { title: string; targets: { expr: string }[] }[];
    };
    expect(dashboard.uid).toBe('agency-platform');
    expect(dashboard.panels.length).toBeGreaterThan(0);
    for (const panel of dashboard.panels) {
      for (const target of panel.targets) {
        expect({ panel: panel.title, unknown: unknownSeriesOf(target.expr, metrics) }).toEqual({
          panel: panel.title,
          unknown: [],
        });
      }
    }
  });
});

describe('Kubernetes: the delivery worker scaled on its backlog (k8s/components/keda-worker)', () => {
  const directory = mkdtempSync(join(tmpdir(), 'keda-overlay-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));
  writeFileSync(
    join(directory, 'kustomization.yaml'),
    [
      'resources:',
      `  - ${relative(directory, join(K8S, 'overlays', 'prod', 'integrations'))}`,
      'components:',
      `  - ${relative(directory, join(K8S, 'components', 'keda-worker'))}`,
      '',
    ].join('\n'),
  );
  const manifests = build(directory);

  it('replaces the fixed replica count with a KEDA ScaledObject on delivery_backlog, from one worker up', () => {
    const worker = only(manifests, 'Deployment', 'integrations-worker');
    expect((worker.spec as { replicas?: number }).replicas).toBeUndefined();
    expect(validationErrorOf(worker)).toBeUndefined();
    const scaledObject = only(manifests, 'ScaledObject');
    const spec = scaledObject.spec as {
      scaleTargetRef: { kind: string; name: string };
      minReplicaCount: number;
      maxReplicaCount: number;
      triggers: { type: string; metadata: { serverAddress: string; query: string; threshold: string } }[];
    };
    expect(scaledObject.apiVersion).toBe('keda.sh/v1alpha1');
    expect(scaledObject.metadata.namespace).toBe(NAMESPACE);
    expect(spec.scaleTargetRef).toMatchObject({ kind: 'Deployment', name: 'integrations-worker' });
    expect(spec.minReplicaCount).toBeGreaterThanOrEqual(1);
    expect(spec.maxReplicaCount).toBeGreaterThan(spec.minReplicaCount);
    expect(spec.triggers.length).toBeGreaterThan(0);
    for (const trigger of spec.triggers) {
      expect(trigger.type).toBe('prometheus');
      expect(trigger.metadata.serverAddress).toMatch(/^https?:\/\//);
      expect(Number(trigger.metadata.threshold)).toBeGreaterThan(0);
      expect(unknownSeriesOf(trigger.metadata.query, exportedMetrics())).toEqual([]);
    }
    expect(spec.triggers[0]?.metadata.query).toMatch(/^max\(delivery_backlog\{/);
  });
});

describe("Kubernetes: the README's example overlay sets what every overlay must", () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const example = /```yaml\n(# k8s\/overlays\/staging\/integrations\/kustomization\.yaml\n[\s\S]*?)```/.exec(
    readme,
  )?.[1];
  const directory = mkdtempSync(join(tmpdir(), 'readme-staging-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));
  writeFileSync(
    join(directory, 'kustomization.yaml'),
    (example ?? '').replaceAll(
      '../../../base/integrations',
      relative(directory, join(K8S, 'base', 'integrations')),
    ),
  );
  const manifests = example ? build(directory) : [];

  it('an issuer and origins, its Ingress on the issuer host, and the Job named after the release', () => {
    expect(issuerAndCorsProblems({ integrations: manifests })).toEqual([]);
    const host = new URL(configOf(manifests).JWT_ISSUER ?? 'https://missing').host;
    expect((only(manifests, 'Ingress').spec as IngressSpec).rules.map((rule) => rule.host)).toEqual([host]);
    expect(only(manifests, 'Job').metadata.name).toBe(
      `integrations-migrate-${imageTagOf(only(manifests, 'Deployment', 'integrations'))}`,
    );
    if (kustomize) {
      const key = (manifest: Manifest) => `${manifest.kind}/${manifest.metadata.name}`;
      const sorted = (list: Manifest[]) => [...list].sort((a, b) => key(a).localeCompare(key(b)));
      expect(sorted(manifests)).toEqual(sorted(kustomize(directory)));
    }
  });
});

describe('Kubernetes: the README and k8s/README.md tell one release story', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const deploy = readme.slice(
    readme.indexOf('\n## Deploy\n'),
    readme.indexOf('\n## ', readme.indexOf('\n## Deploy\n') + 1),
  );
  const k8sReadme = readFileSync(join(K8S, 'README.md'), 'utf8');
  const releaseBlock = (text: string) => /```sh\n(SERVICE=[\s\S]*?)```/.exec(text)?.[1];

  it('gives the same release commands in both, with no Job to delete by hand', () => {
    expect(releaseBlock(deploy)).toEqual(expect.any(String));
    expect(releaseBlock(deploy)).toBe(releaseBlock(k8sReadme));
    expect(releaseBlock(deploy)).toMatch(/-l app\.kubernetes\.io\/component=migration/);
    expect(releaseBlock(deploy)).toMatch(/wait --for=condition=complete job\/\$SERVICE-migrate-\$VERSION/);
    for (const text of [deploy, k8sReadme]) {
      expect(text).not.toMatch(/delete job/);
    }
  });

  it("documents the settings every overlay must set, the host's routes, monitoring and backups", () => {
    for (const text of [deploy, k8sReadme]) {
      expect(text).toMatch(/JWT_ISSUER/);
      expect(text).toMatch(/CORS_ALLOWED_ORIGINS/);
    }
    for (const heading of ['## Ingress', '## Monitoring', '## Backup and restore', '## GitOps']) {
      expect(k8sReadme).toContain(heading);
    }
    for (const schema of ['main_api', 'planner', 'integrations']) {
      expect(k8sReadme).toMatch(new RegExp(`pg_dump[^\\n]*--schema=${schema}`));
    }
  });
});

// deploy-check renders with its own model of Kustomize (manifests.ts), which runs wherever Node does;
// where kubectl is installed, this proves the model renders what kubectl would apply.
(kustomize ? describe : describe.skip)(
  'Kubernetes: deploy-check renders what `kubectl kustomize` renders',
  () => {
    const key = (manifest: Manifest) => `${manifest.kind}/${manifest.metadata.name}`;
    const sorted = (manifests: Manifest[]) => [...manifests].sort((a, b) => key(a).localeCompare(key(b)));
    const directories = [
      ...OVERLAYS.flatMap((overlay) =>
        SERVICES.map((service) => join(K8S, 'overlays', overlay, service.name)),
      ),
      join(K8S, 'monitoring'),
    ];

    it.each(directories.map((directory) => [relative(ROOT, directory), directory]))(
      '%s',
      (_name, directory) => {
        expect(sorted(build(directory))).toEqual(sorted(kustomize!(directory)));
      },
    );

    it('the KEDA component on the prod integrations overlay', () => {
      const directory = mkdtempSync(join(tmpdir(), 'keda-kubectl-'));
      try {
        mkdirSync(directory, { recursive: true });
        writeFileSync(
          join(directory, 'kustomization.yaml'),
          `resources: [${relative(directory, join(K8S, 'overlays', 'prod', 'integrations'))}]\ncomponents: [${relative(directory, join(K8S, 'components', 'keda-worker'))}]\n`,
        );
        expect(sorted(build(directory))).toEqual(sorted(kustomize!(directory)));
      } finally {
        rmSync(directory, { recursive: true, force: true });
      }
    });
  },
);
