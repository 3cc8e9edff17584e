import { Inject, Injectable } from '@nestjs/common';
import { UpstreamUnavailableError } from '@platform/runtime';
import { MainApiRequestError } from './main-api-request.error';
import {
  MAIN_API_CLIENT_OPTIONS,
  type CallerContext,
  type MainApiClientOptions,
} from './main-api-client.options';

type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface MainApiRequest {
  method: HttpMethod;
  /** Path under the service root, e.g. `/v1/users`. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  caller?: CallerContext;
  idempotencyKey?: string;
}

const IDEMPOTENT: ReadonlySet<HttpMethod> = new Set(['GET', 'PUT', 'DELETE']);
const RETRYABLE_STATUS: ReadonlySet<number> = new Set([502, 503, 504]);
const UNAVAILABLE = 'main-api is unavailable, try again later';

/**
 * The one HTTP client planner and integrations use to reach main-api. Every call has a deadline,
 * idempotent calls (and POSTs carrying an idempotency key) are retried with backoff, and "main-api
 * down" becomes an `UpstreamUnavailableError` (503), never a hang or a 500.
 */
@Injectable()
export class MainApiClient {
  private readonly baseUrl: string;

  constructor(@Inject(MAIN_API_CLIENT_OPTIONS) private readonly options: MainApiClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
  }

  async request<T>(request: MainApiRequest): Promise<T> {
    const retryable = IDEMPOTENT.has(request.method) || request.idempotencyKey !== undefined;
    const attempts = 1 + (retryable ? (this.options.retries ?? 2) : 0);
    for (let attempt = 1; ; attempt += 1) {
      const outcome = await this.attempt(request);
      if (outcome.kind === 'answered') {
        return this.read<T>(outcome.response);
      }
      if (attempt >= attempts) {
        throw new UpstreamUnavailableError('main-api', UNAVAILABLE);
      }
      await delay(100 * 3 ** (attempt - 1));
    }
  }

  /** Readiness: main-api's own liveness answers. */
  async ping(signal: AbortSignal): Promise<void> {
    const response = await fetch(`${this.baseUrl}/health/live`, {
      signal: AbortSignal.any([signal, AbortSignal.timeout(this.options.timeoutMs)]),
    });
    await response.body?.cancel();
    if (!response.ok) {
      throw new UpstreamUnavailableError('main-api', `main-api liveness answered ${response.status}`);
    }
  }

  private async attempt(
    request: MainApiRequest,
  ): Promise<{ kind: 'answered'; response: Response } | { kind: 'unavailable' }> {
    try {
      const response = await fetch(this.urlFor(request), {
        method: request.method,
        headers: this.headersFor(request),
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      if (RETRYABLE_STATUS.has(response.status)) {
        await response.body?.cancel();
        return { kind: 'unavailable' };
      }
      return { kind: 'answered', response };
    } catch {
      // Timeout, refused connection, reset: all mean main-api cannot serve us right now.
      return { kind: 'unavailable' };
    }
  }

  private urlFor(request: MainApiRequest): string {
    const url = new URL(`${this.baseUrl}${request.path}`);
    for (const [key, value] of Object.entries(request.query ?? {})) {
      if (value !== undefined) {
        url.searchParams.set(key, String(value));
      }
    }
    return url.toString();
  }

  private headersFor(request: MainApiRequest): Record<string, string> {
    return {
      accept: 'application/json',
      ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(request.caller?.authorization ? { authorization: request.caller.authorization } : {}),
      ...(request.caller?.requestId ? { 'x-request-id': request.caller.requestId } : {}),
      ...(request.idempotencyKey ? { 'idempotency-key': request.idempotencyKey } : {}),
    };
  }

  private async read<T>(response: Response): Promise<T> {
    const text = await response.text();
    let body: unknown;
    try {
      body = text.length > 0 ? JSON.parse(text) : undefined;
    } catch {
      throw new UpstreamUnavailableError('main-api', 'main-api answered a body that is not JSON');
    }
    if (response.ok) {
      return body as T;
    }
    if (response.status >= 500) {
      throw new UpstreamUnavailableError('main-api', UNAVAILABLE);
    }
    const { message, code } = (body ?? {}) as { message?: unknown; code?: unknown };
    throw new MainApiRequestError(
      response.status,
      typeof message === 'string' ? message : `main-api answered ${response.status}`,
      typeof code === 'string' ? code : undefined,
    );
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
