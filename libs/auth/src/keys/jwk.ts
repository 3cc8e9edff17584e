import { createHash, createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto';

export const ACCESS_TOKEN_ALGORITHM = 'RS256';

/**
 * The `typ` header of an access token (RFC 9068): explicit typing, so a JWT of another kind signed
 * with the same key is never taken for an access token (RFC 8725 §3.11).
 */
export const ACCESS_TOKEN_TYPE = 'at+jwt';

/** `typ` is a media type: case-insensitive, `application/` optional (RFC 7515 §4.1.9). */
export function isAccessTokenType(typ: unknown): boolean {
  if (typeof typ !== 'string') {
    return false;
  }
  const type = typ.toLowerCase();
  return type === ACCESS_TOKEN_TYPE || type === `application/${ACCESS_TOKEN_TYPE}`;
}

/** A public key as published in the JWKS document. */
export interface PublicJwk {
  kty: 'RSA';
  kid: string;
  use: 'sig';
  alg: typeof ACCESS_TOKEN_ALGORITHM;
  n: string;
  e: string;
}

/** RFC 7638 thumbprint: a `kid` derived from the key itself, so no one has to name keys by hand. */
export function rsaThumbprint(publicKey: KeyObject): string {
  const { n, e } = publicKey.export({ format: 'jwk' });
  return createHash('sha256')
    .update(JSON.stringify({ e, kty: 'RSA', n }))
    .digest('base64url');
}

export function toPublicJwk(publicKey: KeyObject): PublicJwk {
  const { n, e } = publicKey.export({ format: 'jwk' });
  if (publicKey.asymmetricKeyType !== 'rsa' || !n || !e) {
    throw new Error('only RSA keys are supported for access tokens');
  }
  return { kty: 'RSA', kid: rsaThumbprint(publicKey), use: 'sig', alg: ACCESS_TOKEN_ALGORITHM, n, e };
}

/** Reads one JWKS entry; undefined for anything that is not an RSA signing key for RS256. */
export function fromJwk(
  jwk: JsonWebKey & { kid?: unknown; use?: unknown; alg?: unknown },
): { kid: string; key: KeyObject } | undefined {
  if (
    jwk.kty !== 'RSA' ||
    typeof jwk.kid !== 'string' ||
    (jwk.alg !== undefined && jwk.alg !== ACCESS_TOKEN_ALGORITHM)
  ) {
    return undefined;
  }
  if (jwk.use !== undefined && jwk.use !== 'sig') {
    return undefined;
  }
  try {
    return { kid: jwk.kid, key: createPublicKey({ key: { kty: 'RSA', n: jwk.n, e: jwk.e }, format: 'jwk' }) };
  } catch {
    return undefined;
  }
}
