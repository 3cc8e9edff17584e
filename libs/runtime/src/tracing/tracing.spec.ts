import { propagation, trace } from '@opentelemetry/api';
import { BaseServiceEnv } from '../config/base-service.env';
import { loadEnv } from '../config/load-env';
import { startClientSpan, startTracing, tracingEnabled } from './tracing';

const DATABASE_URL = 'postgres://user@localhost/db';

describe('tracing switch', () => {
  afterEach(() => {
    delete process.env.OTEL_SDK_DISABLED;
  });

  it('is off without OTEL_EXPORTER_OTLP_ENDPOINT: no SDK, no span, no header', async () => {
    const env = loadEnv(BaseServiceEnv, { DATABASE_URL });

    expect(await startTracing('planner', env)).toBeUndefined();

    expect(tracingEnabled()).toBe(false);
    const headers: Record<string, string> = {};
    const attributes = jest.fn(() => ({}));
    expect(startClientSpan('GET', attributes, headers)).toBeUndefined();
    expect(headers).toEqual({});
    expect(attributes).not.toHaveBeenCalled();
    // Nothing was registered with the API: its tracer makes non-recording spans only.
    expect(trace.getTracer('test').startSpan('probe').isRecording()).toBe(false);
    expect(propagation.fields()).toEqual([]);
  });

  it('stays off with OTEL_SDK_DISABLED=true even when an endpoint is set', async () => {
    process.env.OTEL_SDK_DISABLED = 'true';
    const env = loadEnv(BaseServiceEnv, {
      DATABASE_URL,
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
    });

    expect(await startTracing('planner', env)).toBeUndefined();
    expect(tracingEnabled()).toBe(false);
  });

  it('refuses an endpoint that is not an http(s) URL, naming the variable', () => {
    expect(() =>
      loadEnv(BaseServiceEnv, { DATABASE_URL, OTEL_EXPORTER_OTLP_ENDPOINT: 'otel-collector:4318' }),
    ).toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT must be the http\(s\) URL of an OTLP receiver/);
    expect(() => loadEnv(BaseServiceEnv, { DATABASE_URL, OTEL_SERVICE_NAME: 'two words' })).toThrow(
      /OTEL_SERVICE_NAME must be/,
    );
  });
  // On is proven by apps/platform-e2e/src/tracing.e2e-spec.ts, with the built services: the OTLP
  // exporter loads its HTTP agent with a dynamic import, which Jest's module sandbox refuses.
});
