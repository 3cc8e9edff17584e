/** The parts of an OpenAPI operation the document finisher touches. */
export interface OperationObject {
  operationId?: string;
  requestBody?: unknown;
  responses: Record<string, { description?: string; content?: unknown }>;
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
  '413': 'The body is larger than the service accepts, or nested or repeated beyond its limits',
  '415': 'The body is not JSON (or a form where the route takes one)',
  '422': 'Well-formed, but breaks a business rule of the resource',
  '500': 'Unexpected failure; the request may be retried',
  '503': 'A service or database this one depends on is unavailable; retry later',
};

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
    statuses.push('401', '403');
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
 * Declares each error status of the operation with the service's error body. A status the route
 * documents itself keeps its description; one without a body gets the service's.
 */
export function declareErrorResponses(
  operation: OperationObject,
  statuses: string[],
  errorSchema: string,
): void {
  const content = { 'application/json': { schema: { $ref: `#/components/schemas/${errorSchema}` } } };
  for (const status of statuses) {
    const declared = operation.responses[status];
    operation.responses[status] = {
      description: declared?.description || ERROR_DESCRIPTIONS[status],
      content: declared?.content ?? content,
    };
  }
  for (const [status, declared] of Object.entries(operation.responses)) {
    if (/^[45]\d\d$/.test(status) && !declared.content) {
      declared.content = content;
    }
  }
  operation.responses = Object.fromEntries(
    Object.entries(operation.responses).sort(([a], [b]) => a.localeCompare(b)),
  );
}
