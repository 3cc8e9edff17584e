import type { ClientCredentials } from './oauth.service';

/**
 * The client credentials of an `Authorization: Basic` header: undefined when there is none, null
 * when it is malformed. Per RFC 6749 §2.3.1 the id and the secret are each form-encoded before
 * Basic (openid-client and other libraries send `_` as `%5F`), so they are form-decoded here;
 * credentials this platform issues contain no `%` or `+`, so clients that skip the encoding work too.
 */
export function clientCredentialsOf(authorization: string | undefined): ClientCredentials | null | undefined {
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
