import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';

export const ROOT = resolve(__dirname, '..');

export type Manifest = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
} & Record<string, unknown>;

interface Kustomization {
  namespace?: string;
  resources?: string[];
  images?: { name: string; newName?: string; newTag?: string }[];
  patches?: { target: { kind: string; name: string }; patch: string }[];
}

export function readYaml<T = Manifest>(file: string): T[] {
  return parseAllDocuments(readFileSync(file, 'utf8'), { merge: true }).map((document) => {
    if (document.errors.length > 0) {
      throw new Error(`${file}: ${document.errors[0]?.message}`);
    }
    return document.toJS() as T;
  });
}

/**
 * What `kubectl apply -k <dir>` would send, for the subset of Kustomize these manifests use:
 * resources (files and directories), namespace, images and JSON 6902 patches. Any other field
 * makes the check fail, so the manifests cannot drift beyond what is checked.
 */
export function build(directory: string): Manifest[] {
  const file = join(directory, 'kustomization.yaml');
  if (!existsSync(file)) {
    throw new Error(`${directory} has no kustomization.yaml`);
  }
  const [kustomization] = readYaml<Kustomization & Record<string, unknown>>(file);
  const unsupported = Object.keys(kustomization ?? {}).filter(
    (key) => !['apiVersion', 'kind', 'namespace', 'resources', 'images', 'patches'].includes(key),
  );
  if (!kustomization || unsupported.length > 0) {
    throw new Error(`${file}: fields this check does not model: ${unsupported.join(', ')}`);
  }
  let manifests = (kustomization.resources ?? []).flatMap((resource) => {
    const path = resolve(directory, resource);
    return existsSync(join(path, 'kustomization.yaml')) ? build(path) : readYaml(path);
  });
  if (kustomization.namespace) {
    manifests = manifests.map((manifest) =>
      manifest.kind === 'Namespace'
        ? manifest
        : { ...manifest, metadata: { ...manifest.metadata, namespace: kustomization.namespace } },
    );
  }
  for (const patch of kustomization.patches ?? []) {
    const targets = manifests.filter(
      (manifest) => manifest.kind === patch.target.kind && manifest.metadata.name === patch.target.name,
    );
    if (targets.length !== 1) {
      throw new Error(`${file}: patch target ${patch.target.kind}/${patch.target.name} not found once`);
    }
    const operations = readYamlText<JsonPatchOperation[]>(patch.patch);
    manifests = manifests.map((manifest) =>
      manifest === targets[0] ? applyJsonPatch(manifest, operations) : manifest,
    );
  }
  for (const image of kustomization.images ?? []) {
    for (const container of containersOf(manifests)) {
      const [name] = container.image.split(':');
      if (name === image.name) {
        container.image = `${image.newName ?? name}:${image.newTag ?? 'latest'}`;
      }
    }
  }
  return manifests;
}

function readYamlText<T>(text: string): T {
  const [document] = parseAllDocuments(text);
  return document?.toJS() as T;
}

interface JsonPatchOperation {
  op: 'add' | 'replace' | 'remove';
  path: string;
  value?: unknown;
}

/** RFC 6902 add, replace and remove: enough for the overlays, and strict about missing paths. */
function applyJsonPatch<T>(document: T, operations: JsonPatchOperation[]): T {
  const copy = structuredClone(document) as Record<string, unknown>;
  for (const operation of operations) {
    const segments = operation.path
      .split('/')
      .slice(1)
      .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
    const last = segments.pop() as string;
    let parent: Record<string, unknown> = copy;
    for (const segment of segments) {
      const next = parent[segment];
      if (typeof next !== 'object' || next === null) {
        throw new Error(`patch path ${operation.path} does not exist`);
      }
      parent = next as Record<string, unknown>;
    }
    if (operation.op !== 'add' && !(last in parent)) {
      throw new Error(`patch path ${operation.path} does not exist`);
    }
    if (operation.op === 'remove') {
      delete parent[last];
    } else {
      parent[last] = operation.value;
    }
  }
  return copy as T;
}

export interface Container {
  name: string;
  image: string;
  command?: string[];
  ports?: { name: string; containerPort: number }[];
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[];
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }[];
  envFrom?: { configMapRef?: { name: string } }[];
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: Record<string, unknown>;
  startupProbe?: Probe;
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  lifecycle?: { preStop?: { exec?: { command: string[] } } };
}

export interface Probe {
  httpGet?: { path: string; port: string | number };
}

export type Volume = { name: string } & Record<string, unknown>;

export interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  securityContext?: Record<string, unknown>;
  terminationGracePeriodSeconds?: number;
  automountServiceAccountToken?: boolean;
  volumes?: Volume[];
}

export function podSpecOf(manifest: Manifest): PodSpec | undefined {
  const spec = manifest.spec as { template?: { spec?: PodSpec } } | undefined;
  return spec?.template?.spec;
}

/** The labels a workload gives its pods. */
export function podLabelsOf(manifest: Manifest): Record<string, string> {
  const spec = manifest.spec as { template?: { metadata?: { labels?: Record<string, string> } } } | undefined;
  return spec?.template?.metadata?.labels ?? {};
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: {
    key: string;
    operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
    values?: string[];
  }[];
}

/** Kubernetes' label selector semantics; an empty selector matches everything. */
export function matchesSelector(selector: LabelSelector, labels: Record<string, string>): boolean {
  const byLabel = Object.entries(selector.matchLabels ?? {}).every(([key, value]) => labels[key] === value);
  const byExpression = (selector.matchExpressions ?? []).every((expression) => {
    const value = labels[expression.key];
    switch (expression.operator) {
      case 'In':
        return value !== undefined && (expression.values ?? []).includes(value);
      case 'NotIn':
        return value === undefined || !(expression.values ?? []).includes(value);
      case 'Exists':
        return value !== undefined;
      case 'DoesNotExist':
        return value === undefined;
    }
  });
  return byLabel && byExpression;
}

export function containersOf(manifests: Manifest[]): Container[] {
  return manifests.flatMap((manifest) => podSpecOf(manifest)?.containers ?? []);
}

export function only(manifests: Manifest[], kind: string, name?: string): Manifest {
  const found = manifests.filter(
    (manifest) => manifest.kind === kind && (name === undefined || manifest.metadata.name === name),
  );
  if (found.length !== 1) {
    throw new Error(`expected one ${kind}${name ? ` named ${name}` : ''}, found ${found.length}`);
  }
  return found[0];
}
