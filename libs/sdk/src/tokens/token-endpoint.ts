import { createMainApiClient, type MainApi, type MainApiClient } from '@platform/api-clients';
import { dataOf } from '../errors';

/** main-api's token answer: `{access_token, token_type, expires_in, refresh_token}`. */
export type TokenResponse = MainApi.components['schemas']['TokenResponseDto'];

const FORM = 'application/x-www-form-urlencoded';

/**
 * main-api's OAuth token endpoints, reached with the typed client (no middleware: these requests
 * carry client credentials or a refresh token, never a bearer). Bodies are forms, as RFC 6749 has
 * them and as every OAuth library sends them.
 */
export class TokenEndpoint {
  private readonly client: MainApiClient;

  constructor(mainApiUrl: string) {
    this.client = createMainApiClient(mainApiUrl);
  }

  /** RFC 6749 §4.4 with client_secret_basic: the API key and client secret in Basic auth. */
  async clientCredentials(apiKey: string, clientSecret: string): Promise<TokenResponse> {
    return dataOf(
      await this.client.POST('/v1/oauth/token', {
        body: { grant_type: 'client_credentials' },
        bodySerializer: formBody,
        headers: { authorization: basicCredentials(apiKey, clientSecret), 'content-type': FORM },
      }),
    );
  }

  /**
   * One refresh token for the next tokens. `/oauth/refreshtoken` takes the refresh token alone for
   * every kind of login (client credentials, password, browser app), so the SDK needs no client
   * secret to keep a login going.
   */
  async refresh(refreshToken: string): Promise<TokenResponse> {
    return dataOf(
      await this.client.POST('/v1/oauth/refreshtoken', {
        body: { refresh_token: refreshToken },
        bodySerializer: formBody,
        headers: { 'content-type': FORM },
      }),
    );
  }
}

function formBody(fields: object): URLSearchParams {
  return new URLSearchParams(
    Object.entries(fields).flatMap(([name, value]): [string, string][] =>
      typeof value === 'string' ? [[name, value]] : [],
    ),
  );
}

/**
 * RFC 6749 §2.3.1: id and secret are form-encoded before they are joined and base64-encoded, so a
 * `:` in either cannot shift the split (and the result is ASCII, which btoa needs).
 */
export function basicCredentials(id: string, secret: string): string {
  return `Basic ${btoa(`${formEncoded(id)}:${formEncoded(secret)}`)}`;
}

function formEncoded(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice('v='.length);
}
