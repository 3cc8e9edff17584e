import { existsSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { basename, join, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';

export const ROOT = resolve(__dirname, '..');

export type Manifest = {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
} & Record<string, unknown>;

interface JsonPatchTarget {
  target: { kind: string; name: string };
  patch: string;
}

interface ConfigMapGenerator {
  name: string;
  behavior?: 'create' | 'merge' | 'replace';
  envs?: string[];
  files?: string[];
  literals?: string[];
  options?: { labels?: Record<string, string>; disableNameSuffixHash?: boolean };
}

interface Replacement {
  source: { kind: string; name: string; fieldPath: string; options?: DelimiterOptions };
  targets: { select: { kind: string; name?: string }; fieldPaths: string[]; options?: DelimiterOptions }[];
}

interface DelimiterOptions {
  delimiter?: string;
  index?: number;
}

interface Kustomization {
  kind?: string;
  namespace?: string;
  resources?: string[];
  components?: string[];
  images?: { name: string; newName?: string; newTag?: string }[];
  configMapGenerator?: ConfigMapGenerator[];
  replacements?: Replacement[];
  patches?: JsonPatchTarget[];
}

const KUSTOMIZATION_FIELDS = [
  'apiVersion',
  'kind',
  'namespace',
  'resources',
  'components',
  'images',
  'configMapGenerator',
  'replacements',
  'patches',
];

/**
 * Kubernetes reads manifests as YAML 1.1 (sigs.k8s.io/yaml): `0440` is octal there, as a file mode
 * is meant; YAML 1.2 would read 440.
 */
export function readYaml<T = Manifest>(file: string): T[] {
  return parseYamlDocuments<T>(readFileSync(file, 'utf8'), file);
}

function parseYamlDocuments<T>(text: string, source: string): T[] {
  return parseAllDocuments(text, { merge: true, version: '1.1' }).map((document) => {
    if (document.errors.length > 0) {
      throw new Error(`${source}: ${document.errors[0]?.message}`);
    }
    return document.toJS() as T;
  });
}

/** Marks a ConfigMap made by a generator, until the outermost build names it after its data. */
const GENERATED = 'deploy-check.internal/generated';

/**
 * What `kubectl apply -k <dir>` would send, for the subset of Kustomize these manifests use:
 * resources (files and directories), components, namespace, ConfigMap generators (env files, files,
 * literals; merged by overlays; named after a hash of their data, as Kustomize does, and every
 * reference renamed), JSON 6902 patches, images and replacements (with delimiter and index). Any
 * other field makes the check fail, so the manifests cannot drift beyond what is checked; and where
 * kubectl is installed, manifests.spec.ts compares this with `kubectl kustomize`.
 */
export function build(directory: string): Manifest[] {
  return nameGeneratedConfigMaps(accumulate(directory, 'Kustomization'));
}

function accumulate(directory: string, expectedKind: 'Kustomization' | 'Component'): Manifest[] {
  const file = join(directory, 'kustomization.yaml');
  if (!existsSync(file)) {
    throw new Error(`${directory} has no kustomization.yaml`);
  }
  const [kustomization] = readYaml<Kustomization & Record<string, unknown>>(file);
  const unsupported = Object.keys(kustomization ?? {}).filter((key) => !KUSTOMIZATION_FIELDS.includes(key));
  if (!kustomization || unsupported.length > 0) {
    throw new Error(`${file}: fields this check does not model: ${unsupported.join(', ')}`);
  }
  if ((kustomization.kind ?? 'Kustomization') !== expectedKind) {
    throw new Error(`${file}: expected a ${expectedKind}`);
  }
  let manifests = (kustomization.resources ?? []).flatMap((resource) => {
    const path = resolve(directory, resource);
    return existsSync(join(path, 'kustomization.yaml')) ? accumulate(path, 'Kustomization') : readYaml(path);
  });
  for (const component of kustomization.components ?? []) {
    manifests = applyComponent(manifests, resolve(directory, component));
  }
  for (const generator of kustomization.configMapGenerator ?? []) {
    manifests = generateConfigMap(manifests, generator, directory);
  }
  if (kustomization.namespace) {
    manifests = manifests.map((manifest) =>
      manifest.kind === 'Namespace'
        ? manifest
        : { ...manifest, metadata: { ...manifest.metadata, namespace: kustomization.namespace } },
    );
  }
  manifests = applyPatches(manifests, kustomization.patches ?? [], file);
  for (const image of kustomization.images ?? []) {
    for (const container of containersOf(manifests)) {
      const [name] = container.image.split(':');
      if (name === image.name) {
        container.image = `${image.newName ?? name}:${image.newTag ?? 'latest'}`;
      }
    }
  }
  for (const replacement of kustomization.replacements ?? []) {
    manifests = applyReplacement(manifests, replacement, file);
  }
  return manifests;
}

/** A Component's resources join, then its patches apply to everything gathered so far. */
function applyComponent(manifests: Manifest[], directory: string): Manifest[] {
  const file = join(directory, 'kustomization.yaml');
  const [component] = readYaml<Kustomization>(file);
  if (component?.kind !== 'Component' || component.components || component.replacements) {
    throw new Error(`${file}: expected a Component of resources and patches`);
  }
  const added = (component.resources ?? []).flatMap((resource) => readYaml(resolve(directory, resource)));
  return applyPatches([...manifests, ...added], component.patches ?? [], file);
}

function applyPatches(manifests: Manifest[], patches: JsonPatchTarget[], file: string): Manifest[] {
  let patched = manifests;
  for (const patch of patches) {
    const targets = patched.filter(
      (manifest) => manifest.kind === patch.target.kind && manifest.metadata.name === patch.target.name,
    );
    if (targets.length !== 1) {
      throw new Error(`${file}: patch target ${patch.target.kind}/${patch.target.name} not found once`);
    }
    const [operations] = parseYamlDocuments<JsonPatchOperation[]>(patch.patch, file);
    patched = patched.map((manifest) =>
      manifest === targets[0] ? applyJsonPatch(manifest, operations ?? []) : manifest,
    );
  }
  return patched;
}

/** `KEY=value` lines: an env file (blank lines and `#` comments skipped) or a generator's literals. */
function parseAssignments(lines: string[], source: string): Record<string, string> {
  const data: Record<string, string> = {};
  for (const line of lines.map((candidate) => candidate.trimStart())) {
    if (line === '' || line.startsWith('#')) {
      continue;
    }
    const equals = line.indexOf('=');
    if (equals <= 0) {
      throw new Error(`${source}: "${line}" is not KEY=value`);
    }
    data[line.slice(0, equals).trim()] = line.slice(equals + 1).trimEnd();
  }
  return data;
}

function generateConfigMap(
  manifests: Manifest[],
  generator: ConfigMapGenerator,
  directory: string,
): Manifest[] {
  const data: Record<string, string> = {};
  for (const envFile of generator.envs ?? []) {
    Object.assign(
      data,
      parseAssignments(readFileSync(join(directory, envFile), 'utf8').split('\n'), envFile),
    );
  }
  for (const file of generator.files ?? []) {
    data[basename(file)] = readFileSync(join(directory, file), 'utf8');
  }
  Object.assign(data, parseAssignments(generator.literals ?? [], `${directory} literals`));
  const labels = generator.options?.labels;
  const behavior = generator.behavior ?? 'create';
  const existing = manifests.find(
    (manifest) =>
      manifest.kind === 'ConfigMap' &&
      manifest.metadata.name === generator.name &&
      manifest.metadata.annotations?.[GENERATED] !== undefined,
  );
  if ((behavior === 'create') !== (existing === undefined)) {
    throw new Error(
      `${directory}: configMapGenerator ${generator.name}: ${behavior} needs ${behavior === 'create' ? 'no' : 'a'} generated ConfigMap of that name`,
    );
  }
  if (existing) {
    const merged: Manifest = {
      ...existing,
      metadata: {
        ...existing.metadata,
        ...(labels || existing.metadata.labels ? { labels: { ...existing.metadata.labels, ...labels } } : {}),
      },
      data: behavior === 'merge' ? { ...(existing.data as Record<string, string>), ...data } : data,
    };
    return manifests.map((manifest) => (manifest === existing ? merged : manifest));
  }
  const generated: Manifest = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: generator.name,
      ...(labels ? { labels } : {}),
      annotations: { [GENERATED]: generator.options?.disableNameSuffixHash ? 'fixed' : 'hashed' },
    },
    data,
  };
  return [...manifests, generated];
}

/**
 * Kustomize's name suffix for a generated ConfigMap (api/hasher): the first 10 hex digits of the
 * SHA-256 of Go's JSON of {data, kind, name}, with 0, 1, 3, a, e mapped to g, h, k, m, t. Its name
 * field is read at a path that is never there, so it is always "" (hence the same data, the same
 * suffix, whatever the ConfigMap is called).
 */
export function configMapNameSuffix(data: Record<string, string>): string {
  const sorted = Object.fromEntries(Object.entries(data).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  // Go's encoding/json escapes <, > and & (and the two Unicode line separators).
  const json = JSON.stringify({ data: sorted, kind: 'ConfigMap', name: '' }).replace(
    /[<>&\u2028\u2029]/g,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  const replacements: Record<string, string> = { '0': 'g', '1': 'h', '3': 'k', a: 'm', e: 't' };
  return createHash('sha256')
    .update(json)
    .digest('hex')
    .slice(0, 10)
    .replace(/[013ae]/g, (digit) => replacements[digit] ?? digit);
}

/** Generated ConfigMaps get their final names, and every pod's references to them follow. */
function nameGeneratedConfigMaps(manifests: Manifest[]): Manifest[] {
  const renamed = new Map<string, string>();
  const named = manifests.map((manifest) => {
    const marker = manifest.metadata.annotations?.[GENERATED];
    if (manifest.kind !== 'ConfigMap' || marker === undefined) {
      return manifest;
    }
    const annotations = { ...manifest.metadata.annotations };
    delete annotations[GENERATED];
    const name =
      marker === 'hashed'
        ? `${manifest.metadata.name}-${configMapNameSuffix((manifest.data as Record<string, string>) ?? {})}`
        : manifest.metadata.name;
    renamed.set(manifest.metadata.name, name);
    const metadata: Manifest['metadata'] = { ...manifest.metadata, name, annotations };
    if (Object.keys(annotations).length === 0) {
      delete metadata.annotations;
    }
    return { ...manifest, metadata };
  });
  for (const pod of named.flatMap((manifest) => podSpecOf(manifest) ?? [])) {
    for (const container of [...pod.containers, ...(pod.initContainers ?? [])]) {
      for (const source of container.envFrom ?? []) {
        if (source.configMapRef) {
          source.configMapRef.name = renamed.get(source.configMapRef.name) ?? source.configMapRef.name;
        }
      }
      for (const variable of container.env ?? []) {
        const reference = variable.valueFrom?.configMapKeyRef;
        if (reference) {
          reference.name = renamed.get(reference.name) ?? reference.name;
        }
      }
    }
    for (const volume of pod.volumes ?? []) {
      const reference = (volume as { configMap?: { name: string } }).configMap;
      if (reference) {
        reference.name = renamed.get(reference.name) ?? reference.name;
      }
    }
  }
  return named;
}

/** A dotted field path (`spec.template.spec.containers.0.image`) as segments. */
function segmentsOf(fieldPath: string): string[] {
  if (/[[\]]/.test(fieldPath)) {
    throw new Error(`field path ${fieldPath}: only dotted paths are modelled`);
  }
  return fieldPath.split('.');
}

function readField(manifest: Manifest, fieldPath: string): unknown {
  return segmentsOf(fieldPath).reduce<unknown>(
    (value, segment) => (value as Record<string, unknown> | undefined)?.[segment],
    manifest,
  );
}

function applyReplacement(manifests: Manifest[], replacement: Replacement, file: string): Manifest[] {
  const { source } = replacement;
  const sources = manifests.filter(
    (manifest) => manifest.kind === source.kind && manifest.metadata.name === source.name,
  );
  const whole = sources.length === 1 ? readField(sources[0], source.fieldPath) : undefined;
  if (typeof whole !== 'string') {
    throw new Error(
      `${file}: replacement source ${source.kind}/${source.name} ${source.fieldPath} is not one string`,
    );
  }
  const value = source.options?.delimiter
    ? whole.split(source.options.delimiter)[source.options.index ?? 0]
    : whole;
  if (value === undefined) {
    throw new Error(`${file}: replacement source ${source.fieldPath} has no part ${source.options?.index}`);
  }
  return manifests.map((manifest) => {
    const target = replacement.targets.find(
      (candidate) =>
        candidate.select.kind === manifest.kind &&
        (candidate.select.name === undefined || candidate.select.name === manifest.metadata.name),
    );
    if (!target) {
      return manifest;
    }
    const copy = structuredClone(manifest);
    for (const fieldPath of target.fieldPaths) {
      const segments = segmentsOf(fieldPath);
      const last = segments.pop() as string;
      const parent = segments.reduce<Record<string, unknown> | undefined>(
        (node, segment) => node?.[segment] as Record<string, unknown> | undefined,
        copy,
      );
      const current = parent?.[last];
      if (!parent || typeof current !== 'string') {
        throw new Error(
          `${file}: replacement target ${manifest.kind}/${manifest.metadata.name} ${fieldPath} is not a string`,
        );
      }
      const delimiter = target.options?.delimiter;
      if (delimiter) {
        const parts = current.split(delimiter);
        const index = target.options?.index ?? 0;
        if (index < 0 || index >= parts.length) {
          throw new Error(`${file}: replacement target ${fieldPath} has no part ${index}`);
        }
        parts[index] = value;
        parent[last] = parts.join(delimiter);
      } else {
        parent[last] = value;
      }
    }
    return copy;
  });
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
  env?: {
    name: string;
    value?: string;
    valueFrom?: {
      secretKeyRef?: { name: string; key: string };
      configMapKeyRef?: { name: string; key: string };
    };
  }[];
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
