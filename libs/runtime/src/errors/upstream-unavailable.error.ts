/** A service this one depends on (main-api) did not answer in time or answered 5xx. */
export class UpstreamUnavailableError extends Error {
  constructor(
    readonly upstream: string,
    message: string,
  ) {
    super(message);
    this.name = 'UpstreamUnavailableError';
  }
}
