import { createHmac, generateKeyPairSync, randomUUID, sign, type KeyObject } from 'node:crypto';
import { ACCESS_TOKEN_TYPE, rsaThumbprint, toPublicJwk, type PublicJwk } from '@platform/auth';

export const TEST_ISSUER = 'agency-platform';
export const TEST_AUDIENCE = 'agency-platform-api';

export interface TestKeyPair {
  privateKey: KeyObject;
  publicKey: KeyObject;
  kid: string;
  privatePem: string;
  jwks: { keys: PublicJwk[] };
}

/** A fresh RSA key pair, as main-api would hold it (generating one takes ~100 ms: reuse per file). */
export function generateTestKeyPair(): TestKeyPair {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    privateKey,
    publicKey,
    kid: rsaThumbprint(publicKey),
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
    jwks: { keys: [toPublicJwk(publicKey)] },
  };
}

export interface TestTokenOptions {
  keys: TestKeyPair;
  subject?: string;
  companyId?: number;
  roleId?: number;
  issuer?: string;
  audience?: string;
  /** Seconds from now; negative for an expired token. */
  expiresIn?: number;
  header?: Record<string, unknown>;
  claims?: Record<string, unknown>;
}

const encode = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');

/** An access token exactly as main-api signs it, with anything overridable to forge bad ones. */
export function signTestToken(options: TestTokenOptions): string {
  const now = Math.floor(Date.now() / 1000);
  const header = { alg: 'RS256', typ: ACCESS_TOKEN_TYPE, kid: options.keys.kid, ...options.header };
  const claims = {
    iss: options.issuer ?? TEST_ISSUER,
    aud: options.audience ?? TEST_AUDIENCE,
    sub: options.subject ?? 'user:1',
    company_id: options.companyId ?? 1,
    role_id: options.roleId ?? 1,
    iat: now,
    exp: now + (options.expiresIn ?? 600),
    jti: randomUUID(),
    ...options.claims,
  };
  const input = `${encode(header)}.${encode(claims)}`;
  return `${input}.${sign('sha256', Buffer.from(input), options.keys.privateKey).toString('base64url')}`;
}

function unsignedWithHeader(keys: TestKeyPair, header: object): string {
  const [, payload] = signTestToken({ keys }).split('.');
  return `${encode(header)}.${payload}`;
}

/** The classic forgeries a verifier must refuse, each with a valid-looking payload. */
export const FORGED_TOKENS: Readonly<Record<string, (keys: TestKeyPair) => string>> = {
  'garbage instead of a JWT': () => 'not-a-jwt',
  'alg none': (keys) =>
    `${unsignedWithHeader(keys, { alg: 'none', typ: ACCESS_TOKEN_TYPE, kid: keys.kid })}.`,
  'HS256 signed with the public key': (keys) => {
    const input = unsignedWithHeader(keys, { alg: 'HS256', typ: ACCESS_TOKEN_TYPE, kid: keys.kid });
    const secret = keys.publicKey.export({ type: 'spki', format: 'pem' });
    return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
  },
  'expired beyond the leeway': (keys) => signTestToken({ keys, expiresIn: -120 }),
  'wrong audience': (keys) => signTestToken({ keys, audience: 'someone-else' }),
  'wrong issuer': (keys) => signTestToken({ keys, issuer: 'https://evil.example' }),
  'unknown kid': () => signTestToken({ keys: generateTestKeyPair() }),
  'known kid, signed by another key': (keys) =>
    signTestToken({ keys: { ...generateTestKeyPair(), kid: keys.kid } }),
  'flipped signature byte': (keys) => {
    const [header, payload, signature] = signTestToken({ keys }).split('.');
    const bytes = Buffer.from(signature, 'base64url');
    bytes[10] ^= 0x01;
    return `${header}.${payload}.${bytes.toString('base64url')}`;
  },
  'missing company claim': (keys) => signTestToken({ keys, claims: { company_id: undefined } }),
  'unknown role': (keys) => signTestToken({ keys, roleId: 9 }),
  // Properly signed JWTs that do not say they are access tokens (RFC 9068): an ID token or any other
  // JWT signed with the same key must not pass for one.
  'no typ header': (keys) => signTestToken({ keys, header: { typ: undefined } }),
  'typ JWT instead of at+jwt': (keys) => signTestToken({ keys, header: { typ: 'JWT' } }),
};
