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

/** A request that reached a replica after it began to shut down. */
export class ShuttingDownError extends Error {
  constructor() {
    super('This replica is shutting down; retry the request');
    this.name = 'ShuttingDownError';
  }
}
