import { randomUUID, sign } from 'node:crypto';
import { ACCESS_TOKEN_ALGORITHM, ACCESS_TOKEN_TYPE, type AccessTokenClaims } from '@platform/auth';
import type { SigningKeys } from './signing-keys';

export interface AccessTokenSubject {
  subject: `user:${number}` | `client:${number}`;
  companyId: number;
  roleId: number;
  /** The subject's token epoch now: moving it on revokes this token. */
  epoch: number;
}

/** The login a token belongs to and the client it was issued to. */
export interface AccessTokenSession {
  /** The refresh-token family issued with it (claim `sid`). */
  sessionId: string;
  /** RFC 9068 `client_id`: the API key, the browser app's client_id, or PASSWORD_GRANT_CLIENT_ID. */
  clientId: string;
}

/**
 * The `client_id` of tokens from the password grant, which names no client (RFC 9068 requires the
 * claim); no API key (`ak_…`) or browser app (`app_…`) can have it.
 */
export const PASSWORD_GRANT_CLIENT_ID = 'password-grant';

const encode = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Signs RS256 JWTs with the current key; the header names the key (`kid`) so verifiers can rotate. */
export class AccessTokenSigner {
  constructor(
    private readonly keys: SigningKeys,
    private readonly settings: { issuer: string; audience: string; ttlSeconds: number },
  ) {}

  get ttlSeconds(): number {
    return this.settings.ttlSeconds;
  }

  /**
   * The RSA signature runs on libuv's thread pool (crypto.sign with a callback): it is most of a
   * token request's CPU, and on the event loop it held every other request back (bench/README.md,
   * round 5).
   */
  async sign(subject: AccessTokenSubject, session?: AccessTokenSession, now = new Date()): Promise<string> {
    const issuedAt = Math.floor(now.getTime() / 1000);
    const claims: AccessTokenClaims = {
      iss: this.settings.issuer,
      aud: this.settings.audience,
      sub: subject.subject,
      company_id: subject.companyId,
      role_id: subject.roleId,
      iat: issuedAt,
      exp: issuedAt + this.settings.ttlSeconds,
      jti: randomUUID(),
      ...(session && { sid: session.sessionId, client_id: session.clientId }),
      epoch: subject.epoch,
    };
    const signingInput = `${encode({ alg: ACCESS_TOKEN_ALGORITHM, typ: ACCESS_TOKEN_TYPE, kid: this.keys.kid })}.${encode(claims)}`;
    const signature = await new Promise<Buffer>((resolve, reject) =>
      sign('sha256', Buffer.from(signingInput), this.keys.privateKey, (error, result) =>
        error ? reject(error) : resolve(result),
      ),
    );
    return `${signingInput}.${signature.toString('base64url')}`;
  }
}
