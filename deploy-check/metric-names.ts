import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { ROOT } from './manifests';

/** Labels Prometheus (and the Prometheus Operator's scrape configs) add to every series. */
const TARGET_LABELS = ['namespace', 'job', 'instance', 'pod', 'service', 'container', 'endpoint'];

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) {
      return entry.name === 'node_modules' || entry.name === 'test' ? [] : sourceFiles(path);
    }
    return entry.name.endsWith('.ts') && !/\.(spec|e2e-spec)\.ts$/.test(entry.name) ? [path] : [];
  });
}

/**
 * The metrics the services export, name → label names: what the code declares with prom-client
 * (`new Counter|Gauge|Histogram({ name, labelNames })` and MetricsRegistry's `gauge({ name })`, in
 * libs/ and apps/), histograms with their `_bucket` (plus `le`), `_count` and `_sum` series, and
 * prom-client's default process and Node.js metrics (collectDefaultMetrics, as MetricsRegistry
 * calls it).
 */
export function exportedMetrics(): Map<string, Set<string>> {
  const metrics = new Map<string, Set<string>>();
  const files = ['libs', 'apps'].flatMap((directory) => sourceFiles(join(ROOT, directory)));
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/new (Counter|Gauge|Histogram)\(\{|\.gauge\(\{/g)) {
      const end = text.indexOf('registers', match.index);
      const declaration = text.slice(match.index, end === -1 ? undefined : end);
      const name = /name:\s*'([a-zA-Z_:][a-zA-Z0-9_:]*)'/.exec(declaration)?.[1];
      if (!name) {
        continue;
      }
      const labels = [
        ...(/labelNames:\s*\[([^\]]*)\]/.exec(declaration)?.[1] ?? '').matchAll(/'(\w+)'/g),
      ].map(([, label]) => label);
      if (match[1] === 'Histogram') {
        metrics.set(`${name}_bucket`, new Set([...labels, 'le']));
        metrics.set(`${name}_count`, new Set(labels));
        metrics.set(`${name}_sum`, new Set(labels));
      } else {
        metrics.set(name, new Set(labels));
      }
    }
  }
  const defaults = new Registry();
  collectDefaultMetrics({ register: defaults });
  for (const metric of defaults.getMetricsAsArray()) {
    metrics.set(metric.name, new Set(['type', 'space', 'kind', 'version', 'major', 'minor', 'patch']));
  }
  return metrics;
}

/** The series selectors of a PromQL expression (`metric{label="value", ...}`): name and label names. */
export function selectorsOf(expression: string): { metric: string; labels: string[] }[] {
  return [...expression.matchAll(/([a-zA-Z_:][a-zA-Z0-9_:]*)\{([^}]*)\}/g)].map(([, metric, matchers]) => ({
    metric,
    labels: [...matchers.matchAll(/(\w+)\s*(?:=~|!~|!=|=)/g)].map(([, label]) => label),
  }));
}

/** Why an expression would find no series from these services: unknown metrics or labels. Empty when none. */
export function unknownSeriesOf(expression: string, metrics: Map<string, Set<string>>): string[] {
  const selectors = selectorsOf(expression);
  if (selectors.length === 0) {
    return [`"${expression}" names no metric{...} selector`];
  }
  return selectors.flatMap(({ metric, labels }) => {
    const known = metrics.get(metric);
    if (!known) {
      return [`${metric} is not exported by any service`];
    }
    return labels
      .filter((label) => !known.has(label) && !TARGET_LABELS.includes(label))
      .map((label) => `${metric} has no label ${label}`);
  });
}
