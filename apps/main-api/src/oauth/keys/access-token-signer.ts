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

/** The login a token belongs to: the refresh-token family issued with it (claim `sid`). */
export interface AccessTokenSession {
  sessionId: string;
}

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
      ...(session && { sid: session.sessionId }),
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
