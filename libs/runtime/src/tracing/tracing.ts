import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Span,
} from '@opentelemetry/api';
import {
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_URL_PATH,
} from '@opentelemetry/semantic-conventions';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** The variables that turn tracing on and name the service in traces (see BaseServiceEnv). */
export interface TracingEnv {
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;
  OTEL_SERVICE_NAME?: string;
}

/** A started SDK: `shutdown` exports the spans still buffered. */
export interface Tracing {
  shutdown(): Promise<void>;
}

const TRACER_NAME = '@platform/runtime';
let tracingOn = false;

/** Whether this process exports traces: spans are made only then, so tracing off costs a boolean. */
export function tracingEnabled(): boolean {
  return tracingOn;
}

/**
 * Starts the OpenTelemetry Node SDK when an OTLP endpoint is configured, before the app is built;
 * otherwise nothing is loaded and no span is ever made. Everything else is the SDK's own reading of
 * the standard variables (OTEL_EXPORTER_OTLP_PROTOCOL, _HEADERS, _TIMEOUT, OTEL_TRACES_SAMPLER,
 * OTEL_PROPAGATORS, OTEL_BSP_*, OTEL_RESOURCE_ATTRIBUTES, OTEL_SDK_DISABLED). Traces only: metrics
 * stay Prometheus (`/metrics`) and logs stay on stdout, so the SDK's metric and log pipelines are
 * given nothing to export. No auto-instrumentation: the server span (Fastify hooks below) and the
 * main-api client's spans are made by hand, which needs no module patching under ESM.
 */
export async function startTracing(serviceName: string, env: TracingEnv): Promise<Tracing | undefined> {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT || /^true$/i.test(process.env.OTEL_SDK_DISABLED ?? '')) {
    return undefined;
  }
  // Loaded only when on: the SDK and its exporters are megabytes a service without tracing never needs.
  const { NodeSDK } = await import('@opentelemetry/sdk-node');
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME ?? serviceName,
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  tracingOn = true;
  return {
    async shutdown() {
      tracingOn = false;
      await sdk.shutdown();
    },
  };
}

const serverSpans = new WeakMap<object, Span>();

/**
 * A server span per request, named by its route template (`GET /v1/projects/:id`), child of the
 * caller's span when the request carries W3C `traceparent`/`tracestate`, and active while the
 * request is handled, so the main-api client's spans are its children. Registered right after the
 * request context opens; the span ends when the answer is sent.
 */
export function traceRequests(fastify: FastifyInstance): void {
  const tracer = trace.getTracer(TRACER_NAME);
  fastify.addHook('onRequest', (request, _reply, done) => {
    const parent = propagation.extract(ROOT_CONTEXT, request.headers);
    const route = request.routeOptions.url;
    const attributes: Attributes = {
      [ATTR_HTTP_REQUEST_METHOD]: request.method,
      [ATTR_URL_PATH]: request.url.split('?', 1)[0],
    };
    if (route !== undefined) {
      attributes[ATTR_HTTP_ROUTE] = route;
    }
    const span = tracer.startSpan(
      route === undefined ? request.method : `${request.method} ${route}`,
      { kind: SpanKind.SERVER, attributes },
      parent,
    );
    serverSpans.set(request, span);
    context.with(trace.setSpan(parent, span), done);
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    const span = serverSpans.get(request);
    if (span) {
      span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, reply.statusCode);
      if (reply.statusCode >= 500) {
        span.setAttribute(ATTR_ERROR_TYPE, String(reply.statusCode));
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      span.end();
    }
    done();
  });
}

/**
 * `trace_id` and `span_id` of a traced request, for its log lines (the names of OpenTelemetry's log
 * data model, which log back ends use to link a line to its trace). Nothing when tracing is off.
 */
export function traceLogFields(request: FastifyRequest | object): { trace_id?: string; span_id?: string } {
  const span = serverSpans.get(request);
  if (!span) {
    return {};
  }
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

/** What a client span reports when its call ends. */
export interface ClientSpanEnd {
  statusCode?: number;
  /** Why the call failed without an answer (timeout, refused connection), or the status as text. */
  errorType?: string;
}

/**
 * A client span for one outgoing HTTP request, child of the active span (the request being served),
 * and the request's headers with that span's W3C trace context added. Undefined, and the headers
 * untouched, when tracing is off (the attributes are not even computed).
 */
export function startClientSpan(
  name: string,
  attributes: () => Attributes,
  headers: Record<string, string>,
): { end(outcome: ClientSpanEnd): void } | undefined {
  if (!tracingOn) {
    return undefined;
  }
  const span = trace
    .getTracer(TRACER_NAME)
    .startSpan(name, { kind: SpanKind.CLIENT, attributes: attributes() });
  propagation.inject(trace.setSpan(context.active(), span), headers);
  return {
    end({ statusCode, errorType }) {
      if (statusCode !== undefined) {
        span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, statusCode);
      }
      if (errorType !== undefined) {
        span.setAttribute(ATTR_ERROR_TYPE, errorType);
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      span.end();
    },
  };
}
