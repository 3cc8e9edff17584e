import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestDatabase, generateTestKeyPair, type TestDatabase } from '@platform/testing';
import { migrateAll, provision, RunningService, stopAll } from './service-process';

interface Provisioned {
  apiKey: string;
  clientSecret: string;
}

/** A span as OTLP/HTTP's JSON encoding carries it (ids in hex). */
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: { key: string; value: { stringValue?: string; intValue?: string | number } }[];
}

interface ExportedSpan extends OtlpSpan {
  service: string;
}

interface OtlpTraceRequest {
  resourceSpans: {
    resource: { attributes: { key: string; value: { stringValue?: string } }[] };
    scopeSpans: { spans: OtlpSpan[] }[];
  }[];
}

const SPAN_KIND_SERVER = 2;
const SPAN_KIND_CLIENT = 3;

/** An OTLP/HTTP receiver in this process: what a collector would be told, span by span. */
class OtlpReceiver {
  readonly spans: ExportedSpan[] = [];
  readonly paths: string[] = [];

  private constructor(private readonly server: Server) {}

  static async start(): Promise<OtlpReceiver> {
    const receiver = new OtlpReceiver(createServer());
    receiver.server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        receiver.receive(request.url ?? '', Buffer.concat(chunks).toString('utf8'));
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private receive(path: string, body: string): void {
    this.paths.push(path);
    const exported = JSON.parse(body) as OtlpTraceRequest;
    for (const { resource, scopeSpans } of exported.resourceSpans) {
      const service =
        resource.attributes.find((attribute) => attribute.key === 'service.name')?.value.stringValue ?? '';
      for (const { spans } of scopeSpans) {
        this.spans.push(...spans.map((span) => ({ ...span, service })));
      }
    }
  }
}

function attribute(span: OtlpSpan, key: string): string | number | undefined {
  const value = span.attributes?.find((entry) => entry.key === key)?.value;
  return value?.stringValue ?? (value?.intValue === undefined ? undefined : Number(value.intValue));
}

async function eventually<T>(find: () => T | undefined, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) {
      return found;
    }
    if (Date.now() > deadline) {
      throw new Error('not found in time');
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The built services with tracing on (OTEL_EXPORTER_OTLP_ENDPOINT), exporting to a receiver in this
 * process over OTLP/HTTP JSON: a planner read that calls main-api is one trace across both.
 */
describe('traces across planner and main-api', () => {
  const keys = generateTestKeyPair();
  let database: TestDatabase;
  let receiver: OtlpReceiver;
  let mainApi: RunningService;
  let planner: RunningService;
  let services: RunningService[] = [];
  let bearer: { authorization: string };

  beforeAll(async () => {
    receiver = await OtlpReceiver.start();
    database = await createTestDatabase('tracing');
    await migrateAll(database.url);
    const tracing = {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      // Export within 100 ms of a span ending, not the default 5 s.
      OTEL_BSP_SCHEDULE_DELAY: '100',
      LOG_LEVEL: 'info',
    };
    mainApi = await RunningService.start('main-api', {
      ...tracing,
      DATABASE_URL: database.url,
      JWT_PRIVATE_KEY: keys.privatePem,
    });
    services.push(mainApi);
    await mainApi.waitUntilReady();
    planner = await RunningService.start('planner', {
      ...tracing,
      DATABASE_URL: database.url,
      MAIN_API_URL: mainApi.url,
    });
    services.push(planner);
    await planner.waitUntilReady();

    const company = await provision<Provisioned>(database.url, ['--company', 'Traced Agency']);
    const token = await fetch(`${mainApi.url}/v1/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: company.apiKey,
        client_secret: company.clientSecret,
      }),
    });
    expect(token.status).toBe(200);
    bearer = { authorization: `Bearer ${((await token.json()) as { access_token: string }).access_token}` };
  }, 60_000);

  afterAll(async () => {
    try {
      await stopAll(services);
    } finally {
      services = [];
      await receiver?.stop();
      await database?.drop();
    }
  });

  it('makes one trace of a planner read: planner server span, its client span, main-api server span', async () => {
    const json = { ...bearer, 'content-type': 'application/json' };
    const client = await fetch(`${mainApi.url}/v1/clients`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ name: 'Traced Foods' }),
    });
    expect(client.status).toBe(201);
    const project = await fetch(`${mainApi.url}/v1/projects`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({
        name: 'Traced launch',
        client_id: ((await client.json()) as { id: number }).id,
      }),
    });
    expect(project.status).toBe(201);
    const projectId = ((await project.json()) as { id: number }).id;

    const read = await fetch(`${planner.url}/allocation/getAllocations/${projectId}`, { headers: bearer });
    expect(read.status).toBe(200);
    const requestId = read.headers.get('x-request-id');

    const plannerServer = await eventually(() =>
      receiver.spans.find(
        (span) =>
          span.service === 'planner' &&
          span.kind === SPAN_KIND_SERVER &&
          span.name === 'GET /allocation/getAllocations/:projectId',
      ),
    );
    expect(attribute(plannerServer, 'http.response.status_code')).toBe(200);
    expect(attribute(plannerServer, 'http.route')).toBe('/allocation/getAllocations/:projectId');
    // The read started the trace: the test sent no traceparent.
    expect(plannerServer.parentSpanId ?? '').toBe('');

    const trace = plannerServer.traceId;
    const plannerClient = await eventually(() =>
      receiver.spans.find(
        (span) => span.service === 'planner' && span.kind === SPAN_KIND_CLIENT && span.traceId === trace,
      ),
    );
    expect(plannerClient.parentSpanId).toBe(plannerServer.spanId);
    expect(plannerClient.name).toBe('GET');
    expect(attribute(plannerClient, 'http.response.status_code')).toBe(200);

    // main-api's span is the child of the planner's client span: traceparent crossed the HTTP hop.
    const mainApiServer = await eventually(() =>
      receiver.spans.find(
        (span) => span.service === 'main-api' && span.kind === SPAN_KIND_SERVER && span.traceId === trace,
      ),
    );
    expect(mainApiServer.parentSpanId).toBe(plannerClient.spanId);
    expect(mainApiServer.name).toMatch(/^GET \/v1\//);
    expect(receiver.paths.every((path) => path === '/v1/traces')).toBe(true);

    // The planner's log line of that request carries its trace and span.
    const line = await eventually(() =>
      planner.logs
        .split('\n')
        .filter((entry) => entry.startsWith('{'))
        .map((entry) => JSON.parse(entry) as { req?: { id?: string }; trace_id?: string; span_id?: string })
        .find((entry) => entry.req?.id === requestId),
    );
    expect(line).toMatchObject({ trace_id: trace, span_id: plannerServer.spanId });
  });

  it('continues a trace the caller started (W3C traceparent in, same trace id out)', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const callerSpan = '00f067aa0ba902b7';
    const live = await fetch(`${planner.url}/allocation/getAllocations/999999`, {
      headers: { ...bearer, traceparent: `00-${traceId}-${callerSpan}-01` },
    });
    expect(live.status).toBe(404);

    const server = await eventually(() =>
      receiver.spans.find(
        (span) => span.service === 'planner' && span.kind === SPAN_KIND_SERVER && span.traceId === traceId,
      ),
    );
    expect(server.parentSpanId).toBe(callerSpan);
    expect(attribute(server, 'http.response.status_code')).toBe(404);
    await eventually(() =>
      receiver.spans.find((span) => span.service === 'main-api' && span.traceId === traceId),
    );
  });
});
