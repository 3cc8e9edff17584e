/** Why a request was refused by design, for its one log line (`logCompletedRequests`). */
export interface RequestRefusal {
  type: string;
  message: string;
}

const refusals = new WeakMap<object, RequestRefusal>();

/**
 * Marks a request (Node's request object, `request.raw`) as refused by design: a 503 the service
 * means to answer while something it depends on is unavailable or it is shutting down. Its request
 * line is then written at `warn` with the reason, and nothing else logs it: a main-api outage must
 * not write two error lines for every caller it turns away.
 */
export function noteRefusal(rawRequest: object, refusal: RequestRefusal): void {
  refusals.set(rawRequest, refusal);
}

export function refusalOf(rawRequest: object): RequestRefusal | undefined {
  return refusals.get(rawRequest);
}
