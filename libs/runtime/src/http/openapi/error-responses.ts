import type { NormalizedFailure } from '../../errors/failure';

/** The parts of an OpenAPI operation the document finisher touches. */
export interface OperationObject {
  operationId?: string;
  requestBody?: unknown;
  responses: Record<string, { description?: string; content?: unknown; headers?: Record<string, unknown> }>;
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; schema?: Record<string, unknown> }[];
  [extension: `x-${string}`]: unknown;
}

/** Why each error status is answered, the same on every service; routes may say more. */
const ERROR_DESCRIPTIONS: Record<string, string> = {
  '400': 'Malformed request, or a parameter or field that fails its rules (each named)',
  '401': 'Missing, malformed, expired, revoked or forged bearer token',
  '403': "The caller's role may not do this, or the body names another company's id",
  '404': "No such resource in the caller's company (another company's ids answer the same)",
  '409': 'The request conflicts with the current state (a unique value taken, a concurrent change)',
  '412': 'If-Match names a version the resource no longer has',
  '413': 'The body is larger than the service accepts, or nested or repeated beyond its limits',
  '415': 'The body is not JSON (or a form where the route takes one)',
  '422': 'Well-formed, but breaks a business rule of the resource',
  '429': "The company's request quota is used up for now: retry after Retry-After seconds",
  '500': 'Unexpected failure; the request may be retried',
  '503': 'A service or database this one depends on is unavailable; retry later',
};

/**
 * A failure typical of each error status, with the messages the services give. Each service renders
 * it with its own error renderer into the example of that status, so Swagger UI shows a 404 body
 * for a 404 (not the schema's one example for every status) and the example is a body the service
 * really sends.
 */
const EXAMPLE_FAILURES: Record<string, NormalizedFailure> = {
  '400': {
    kind: 'validation',
    status: 400,
    message: 'Request validation failed: name should not be empty',
    fieldErrors: [{ field: 'name', validation: 'isNotEmpty', message: 'name should not be empty' }],
  },
  '401': { kind: 'unauthenticated', status: 401, message: 'Access token has expired' },
  '403': { kind: 'forbidden', status: 403, message: 'Your role does not allow this operation' },
  '404': { kind: 'not_found', status: 404, message: 'Resource 42 not found' },
  '405': { kind: 'method_not_allowed', status: 405, message: 'Method not allowed' },
  '409': {
    kind: 'conflict',
    status: 409,
    message: 'The request conflicts with the current state of the resource',
  },
  '413': { kind: 'payload_too_large', status: 413, message: 'Request body is too large' },
  '415': { kind: 'unsupported_media_type', status: 415, message: 'Unsupported Content-Type' },
  '422': { kind: 'unprocessable', status: 422, message: 'Well-formed, but refused by a business rule' },
  '429': {
    kind: 'rate_limited',
    status: 429,
    message: 'Too many requests; retry later',
    retryAfterSeconds: 1,
  },
  '500': { kind: 'internal', status: 500, message: 'Unexpected error' },
  '503': {
    kind: 'upstream_unavailable',
    status: 503,
    message: 'A service this one depends on is unavailable; retry later',
  },
};

/** The failure an error status's example is rendered from (a generic one for a rarer status). */
export function exampleFailureOf(status: string): NormalizedFailure {
  return (
    EXAMPLE_FAILURES[status] ?? {
      kind: Number(status) >= 500 ? 'internal' : 'malformed_request',
      status: Number(status),
      message: ERROR_DESCRIPTIONS[status] ?? 'Bad request',
    }
  );
}

const WRITE_METHODS = new Set(['post', 'put', 'patch', 'delete']);

/**
 * The error statuses an operation can answer, from what it is rather than route by route: every
 * operation may meet bad input and failures; protected ones 401/403; ones naming a resource in the
 * path 404; writes conflicts and rule violations; ones with a body its size and media type.
 */
export function errorStatusesOf(
  method: string,
  path: string,
  operation: OperationObject,
  isProtected: boolean,
): string[] {
  const statuses = ['400', '500', '503'];
  if (isProtected) {
    // 429: the company's quota (TenantQuotaGuard), on every authenticated route.
    statuses.push('401', '403', '429');
  }
  if (path.includes('{')) {
    statuses.push('404');
  }
  if (WRITE_METHODS.has(method)) {
    statuses.push('409', '422');
  }
  if (operation.requestBody) {
    statuses.push('413', '415');
  }
  return statuses;
}

/**
 * Declares each error status of the operation with the service's error body and an example of that
 * body for that status (`exampleOf`). A status the route documents itself keeps its description and
 * its own body; one without a body gets the service's.
 */
export function declareErrorResponses(
  operation: OperationObject,
  statuses: string[],
  errorSchema: string,
  exampleOf: (status: string) => unknown,
): void {
  const schema = { $ref: `#/components/schemas/${errorSchema}` };
  const contentFor = (status: string) => ({
    'application/json': { schema, example: exampleOf(status) },
  });
  for (const status of statuses) {
    const declared = operation.responses[status];
    operation.responses[status] = {
      description: declared?.description || ERROR_DESCRIPTIONS[status],
      content: declared?.content ?? contentFor(status),
    };
  }
  for (const [status, declared] of Object.entries(operation.responses)) {
    if (!/^[45]\d\d$/.test(status)) {
      continue;
    }
    if (!declared.content) {
      declared.content = contentFor(status);
      continue;
    }
    // A route that names the service's error body itself (`@ApiNotFoundResponse({type})`) gets
    // the example of its status too.
    const json = (declared.content as Record<string, { schema?: { $ref?: string }; example?: unknown }>)[
      'application/json'
    ];
    if (json?.schema?.$ref === schema.$ref && json.example === undefined) {
      json.example = exampleOf(status);
    }
  }
  operation.responses = Object.fromEntries(
    Object.entries(operation.responses).sort(([a], [b]) => a.localeCompare(b)),
  );
}
