import type { NestFastifyApplication } from '@nestjs/platform-fastify';

/** One sample of a scrape: a metric's name, its labels and value. */
export interface MetricSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** What `GET /metrics` answered, as a Prometheus server would read it. */
export class ScrapedMetrics {
  constructor(readonly samples: MetricSample[]) {}

  /** The value of the one sample of `name` whose labels include `labels`; undefined when none. */
  value(name: string, labels: Record<string, string> = {}): number | undefined {
    return this.samples.find(
      (sample) =>
        sample.name === name &&
        Object.entries(labels).every(([key, wanted]) => sample.labels[key] === wanted),
    )?.value;
  }
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Scrapes the service's `/metrics` (Prometheus text format) through the app. */
export async function scrapeMetrics(app: NestFastifyApplication): Promise<ScrapedMetrics> {
  const response = await app.inject({ method: 'GET', url: '/metrics' });
  if (response.statusCode !== 200) {
    throw new Error(`GET /metrics answered ${response.statusCode}`);
  }
  return new ScrapedMetrics(
    response.body.split('\n').flatMap((line): MetricSample[] => {
      const sample = SAMPLE.exec(line);
      if (!sample || line.startsWith('#')) {
        return [];
      }
      const [, name, labels = '', value] = sample as unknown as [string, string, string | undefined, string];
      return [
        {
          name,
          labels: Object.fromEntries([...labels.matchAll(LABEL)].map(([, key, text]) => [key, text])),
          value: Number(value),
        },
      ];
    }),
  );
}
