/** main-api answered, but refused the call (4xx): callers may pass its status and message on. */
export class MainApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly upstreamMessage: string,
    readonly upstreamCode?: string,
  ) {
    super(`main-api answered ${status}: ${upstreamMessage}`);
    this.name = 'MainApiRequestError';
  }
}
