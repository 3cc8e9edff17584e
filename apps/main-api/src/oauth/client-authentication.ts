import { OAuthError } from './oauth.errors';
import type { ClientCredentials } from './oauth.service';

/** The form fields of `client_secret_post` (RFC 6749 §2.3.1), as the token and revocation forms carry them. */
export interface ClientAuthenticationFields {
  client_id?: string;
  client_secret?: string;
}

/**
 * The credentials a client authenticates with: `Authorization: Basic` (client_secret_basic, the
 * documented form) or `client_id` + `client_secret` in the form (client_secret_post). Undefined when
 * the request carries none; a `client_id` alone authenticates nothing. Refused, naming no client to
 * count a failure against: a malformed Basic header (invalid_client), or two methods at once, which
 * RFC 6749 §2.3 forbids (invalid_request). A `client_id` beside Basic must name the same client.
 */
export function clientAuthenticationOf(
  authorization: string | undefined,
  form: ClientAuthenticationFields,
): ClientCredentials | undefined {
  const basic = clientCredentialsOf(authorization);
  if (basic === null) {
    throw new OAuthError('invalid_client', 'Client authentication failed');
  }
  const { client_id: clientId, client_secret: secret } = form;
  if (basic !== undefined) {
    if (secret !== undefined || (clientId !== undefined && clientId !== basic.apiKey)) {
      throw new OAuthError(
        'invalid_request',
        'Use one client authentication method: HTTP Basic or client_id and client_secret in the form',
      );
    }
    return basic;
  }
  if (secret === undefined) {
    return undefined;
  }
  if (clientId === undefined) {
    throw new OAuthError('invalid_request', 'client_secret needs client_id');
  }
  return { apiKey: clientId, secret };
}

/**
 * The client credentials of an `Authorization: Basic` header: undefined when there is none, null
 * when it is malformed. Per RFC 6749 §2.3.1 the id and the secret are each form-encoded before
 * Basic (openid-client and other libraries send `_` as `%5F`), so they are form-decoded here;
 * credentials this platform issues contain no `%` or `+`, so clients that skip the encoding work too.
 */
function clientCredentialsOf(authorization: string | undefined): ClientCredentials | null | undefined {
  if (authorization === undefined || authorization === '') {
    return undefined;
  }
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization);
  if (!match) {
    return null;
  }
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const separator = decoded.indexOf(':');
  if (separator <= 0 || decoded.length > 1000) {
    return null;
  }
  const apiKey = formDecode(decoded.slice(0, separator));
  const secret = formDecode(decoded.slice(separator + 1));
  // U+0000 cannot be an api_key (and would fail in PostgreSQL rather than here).
  if (
    apiKey === undefined ||
    secret === undefined ||
    apiKey.length > 200 ||
    secret.length > 500 ||
    apiKey.includes('\u0000')
  ) {
    return null;
  }
  return { apiKey, secret };
}

function formDecode(value: string): string | undefined {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}
