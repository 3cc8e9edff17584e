import type { OAuthApp } from './oauth-app.entity';
import { S256_CHALLENGE } from './pkce';

/** RFC 6749 §4.1.2.1 error codes answered to the app's redirect URI. */
export type AuthorizeErrorCode = 'invalid_request' | 'unsupported_response_type' | 'server_error';

/** A checked authorization request (RFC 6749 §4.1.1, RFC 7636 §4.3). */
export interface AuthorizationRequest {
  app: OAuthApp;
  redirectUri: string;
  codeChallenge: string;
  state?: string;
}

export type CheckedRequest =
  /** Unknown client or redirect URI: shown on the page, never redirected (RFC 6749 §4.1.2.1). */
  | { kind: 'refused'; message: string }
  /** Redirected to the app with `error` and `state`. */
  | {
      kind: 'redirect-error';
      redirectUri: string;
      state?: string;
      error: AuthorizeErrorCode;
      description: string;
    }
  | { kind: 'valid'; request: AuthorizationRequest };

const MAX_STATE_LENGTH = 1000;

/**
 * A parameter given once, as a string: undefined when absent, null when repeated or not text (RFC
 * 6749 §3.1: parameters must not be included more than once).
 */
function single(parameters: Record<string, unknown>, name: string): string | undefined | null {
  const value = parameters[name];
  if (value === undefined || value === '') {
    return undefined;
  }
  return typeof value === 'string' ? value : null;
}

/**
 * Checks the parameters of `/oauth/authorize` (query of the GET, form of the POST). The client and
 * its redirect URI are checked first: until both are known, nothing may be sent to the URI.
 */
export async function checkAuthorizationRequest(
  parameters: Record<string, unknown>,
  findApp: (clientId: string) => Promise<OAuthApp | null>,
): Promise<CheckedRequest> {
  const clientId = single(parameters, 'client_id');
  if (!clientId) {
    return { kind: 'refused', message: 'The request names no client_id (or names several).' };
  }
  const app = clientId.length <= 64 ? await findApp(clientId) : null;
  if (!app) {
    return { kind: 'refused', message: 'The application (client_id) is not registered.' };
  }
  const redirectUri = single(parameters, 'redirect_uri');
  if (!redirectUri || !app.redirectUris.includes(redirectUri)) {
    return { kind: 'refused', message: 'The redirect_uri is not registered for this application.' };
  }
  const state = single(parameters, 'state');
  const refuse = (error: AuthorizeErrorCode, description: string): CheckedRequest => ({
    kind: 'redirect-error',
    redirectUri,
    state: typeof state === 'string' && state.length <= MAX_STATE_LENGTH ? state : undefined,
    error,
    description,
  });
  if (state === null || (state !== undefined && state.length > MAX_STATE_LENGTH)) {
    return refuse('invalid_request', `state must be given once, at most ${MAX_STATE_LENGTH} characters`);
  }
  const responseType = single(parameters, 'response_type');
  if (responseType === undefined || responseType === null) {
    return refuse('invalid_request', 'response_type=code is required');
  }
  if (responseType !== 'code') {
    return refuse('unsupported_response_type', 'Only response_type=code is supported');
  }
  const challenge = single(parameters, 'code_challenge');
  const method = single(parameters, 'code_challenge_method');
  if (!challenge || !S256_CHALLENGE.test(challenge)) {
    return refuse(
      'invalid_request',
      'code_challenge is required: BASE64URL(SHA-256(code_verifier)), 43 characters (PKCE)',
    );
  }
  if (method !== 'S256') {
    return refuse('invalid_request', 'code_challenge_method must be S256; plain is not supported');
  }
  return { kind: 'valid', request: { app, redirectUri, codeChallenge: challenge, state } };
}
