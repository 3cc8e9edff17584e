import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { Service } from 'kubernetes-models/v1/Service';
import {
  build,
  containersOf,
  only,
  podSpecOf,
  readYaml,
  ROOT,
  type Container,
  type Manifest,
} from './manifests';
import { SERVICES, type ServiceSettings } from './service-settings';

/** Secrets the README's one-time setup creates; manifests may reference no other. */
const DOCUMENTED_SECRETS = new Set([
  'agency-platform-database',
  'main-api-signing-key',
  'agency-platform-integrations',
]);

const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  ConfigMap,
  Deployment,
  HorizontalPodAutoscaler,
  Job,
  Namespace,
  PodDisruptionBudget,
  Service,
};

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

describe.each(SERVICES.map((service) => [service.name, service] as const))(
  'Kubernetes: %s',
  (name, service) => {
    describe.each(OVERLAYS)('overlay %s, deployed alone', (overlay) => {
      const manifests = build(join(ROOT, 'k8s', 'overlays', overlay, name));
      const deployment = only(manifests, 'Deployment');
      const pod = podSpecOf(deployment);
      const [container] = pod?.containers ?? [];

      it('holds only this service, each object valid against the Kubernetes schemas', () => {
        expect(manifests.map((manifest) => manifest.kind).sort()).toEqual(
          [
            'ConfigMap',
            'Deployment',
            'HorizontalPodAutoscaler',
            'Job',
            'PodDisruptionBudget',
            'Service',
          ].sort(),
        );
        for (const manifest of manifests) {
          expect(manifest.metadata.name.startsWith(name)).toBe(true);
          expect(manifest.metadata.namespace).toBe('agency-platform');
          const Model = MODELS[manifest.kind];
          expect(Model).toBeDefined();
          expect(() => new Model(manifest as never).validate()).not.toThrow();
        }
      });

      it('starts the app with exactly the settings it reads, including the ones it requires', () => {
        expectStartsWith(service, environmentOf(container, manifests));
        for (const migrate of podSpecOf(only(manifests, 'Job'))?.containers ?? []) {
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

      it('listens on its port, behind a Service, with the probes on the health endpoints', () => {
        expect(container?.ports).toEqual([{ name: 'http', containerPort: service.port }]);
        const serviceSpec = only(manifests, 'Service').spec as {
          ports: { port: number; targetPort: string }[];
        };
        expect(serviceSpec.ports).toEqual([
          expect.objectContaining({ port: service.port, targetPort: 'http' }),
        ]);
        expect(container?.readinessProbe?.httpGet).toEqual({ path: '/health/ready', port: 'http' });
        expect(container?.livenessProbe?.httpGet).toEqual({ path: '/health/live', port: 'http' });
        expect(container?.startupProbe?.httpGet).toEqual({ path: '/health/live', port: 'http' });
      });

      it('runs every container as non-root on a read-only file system, with requests and limits', () => {
        for (const workload of [deployment, only(manifests, 'Job')]) {
          expect(podSpecOf(workload)?.securityContext).toMatchObject({ runAsNonRoot: true });
          for (const candidate of podSpecOf(workload)?.containers ?? []) {
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
      });

      it('migrates with the same image and its own migrate command', () => {
        const [migrate] = podSpecOf(only(manifests, 'Job'))?.containers ?? [];
        expect(migrate?.image).toBe(container?.image);
        expect(migrate?.command).toEqual(['node', `dist/apps/${name}/apps/${name}/src/migrate.js`]);
      });

      it('scales with an autoscaler on the Deployment, and keeps pods through disruptions', () => {
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
    });
  },
);

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

  it('lists every file of a base in its kustomization', () => {
    for (const service of SERVICES) {
      const directory = join(ROOT, 'k8s', 'base', service.name);
      const [kustomization] = readYaml<{ resources: string[] }>(join(directory, 'kustomization.yaml'));
      const files = readdirSync(directory).filter((file) => file !== 'kustomization.yaml');
      expect(kustomization?.resources.sort()).toEqual(files.sort());
    }
  });

  it('creates the namespace from a manifest of its own', () => {
    const [namespace] = readYaml(join(ROOT, 'k8s', 'namespace.yaml'));
    expect(() => new Namespace(namespace as never).validate()).not.toThrow();
    expect(namespace?.metadata.name).toBe('agency-platform');
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
    expect(runtime).toMatch(/npm ci --omit=dev/);
  });
});
