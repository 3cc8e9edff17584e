/**
 * A service refused a request: its status and its error body as it came (each service's own
 * `{status, name, code, message}`, or RFC 6749's `{error, error_description}` from the token
 * endpoint), so a caller can branch on the code without parsing a message.
 */
export class PlatformApiError extends Error {
  override readonly name = 'PlatformApiError';

  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly url?: string,
  ) {
    super(`${status}${url === undefined ? '' : ` from ${url}`}: ${describeBody(body)}`);
  }
}

function describeBody(body: unknown): string {
  if (typeof body === 'object' && body !== null) {
    const { message, error_description: description, error } = body as Record<string, unknown>;
    for (const text of [message, description, error]) {
      if (typeof text === 'string') {
        return text;
      }
    }
  }
  return typeof body === 'string' && body !== '' ? body : 'no error body';
}

/** What openapi-fetch answers for one request: the typed 2xx body, or the error body. */
export interface ApiAnswer<Data, ErrorBody = unknown> {
  data?: Data;
  error?: ErrorBody;
  response: Response;
}

/** The 2xx body of `answer`; anything else is thrown as a PlatformApiError. */
export function dataOf<Data>(answer: ApiAnswer<Data>): Data {
  if (!answer.response.ok) {
    throw new PlatformApiError(answer.response.status, answer.error, answer.response.url);
  }
  return answer.data as Data;
}

/**
 * A refresh-token login cannot go on: its last refresh token was spent on a refresh that did not
 * answer new tokens. Sign in again (or use client credentials).
 */
export class LoginEndedError extends Error {
  override readonly name = 'LoginEndedError';

  constructor(cause: unknown) {
    super(`the login's refresh token was spent without new tokens in return: sign in again`, { cause });
  }
}
