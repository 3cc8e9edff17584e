import { verify } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { ACCESS_TOKEN_ALGORITHM, isAccessTokenType, VerificationKeySource } from '@platform/auth';
import { MAIN_API_ENV, type MainApiEnv } from '../../config/main-api.env';

/** The login an access token belongs to, as revocation needs it. */
export interface AccessTokenLogin {
  /** The token's `sid`: its refresh-token family. */
  familyId: string;
  /** The token's `company_id`. */
  companyId: number;
  /** Set when the token was issued to an API client (`sub` `client:<id>`). */
  apiClientId?: number;
}

const SUBJECT = /^(user|client):([1-9]\d{0,9})$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Recognises an access token main-api issued, for RFC 7009 revocation by access token: signature
 * with one of main-api's keys, `typ`, `iss`, `aud` and `exp` as the guard checks them (an expired
 * token cannot end a login any more). Anything else is no token of ours, which revocation answers
 * like an unknown token.
 */
@Injectable()
export class IssuedAccessTokens {
  constructor(
    private readonly keys: VerificationKeySource,
    @Inject(MAIN_API_ENV) private readonly env: MainApiEnv,
  ) {}

  async loginOf(token: string, now = Date.now()): Promise<AccessTokenLogin | undefined> {
    const [header, payload, signature, ...rest] = token.split('.');
    const fields = rest.length === 0 ? decode(header) : undefined;
    if (
      !fields ||
      fields.alg !== ACCESS_TOKEN_ALGORITHM ||
      !isAccessTokenType(fields.typ) ||
      typeof fields.kid !== 'string'
    ) {
      return undefined;
    }
    const key = await this.keys.keyFor(fields.kid);
    if (
      !key ||
      signature === undefined ||
      !verify('sha256', Buffer.from(`${header}.${payload}`), key, Buffer.from(signature, 'base64url'))
    ) {
      return undefined;
    }
    const claims = decode(payload);
    const subject = typeof claims?.sub === 'string' ? SUBJECT.exec(claims.sub) : null;
    if (
      !claims ||
      !subject ||
      claims.iss !== this.env.JWT_ISSUER ||
      claims.aud !== this.env.JWT_AUDIENCE ||
      typeof claims.exp !== 'number' ||
      claims.exp * 1000 <= now ||
      typeof claims.sid !== 'string' ||
      !UUID.test(claims.sid) ||
      !Number.isSafeInteger(claims.company_id) ||
      (claims.company_id as number) <= 0
    ) {
      return undefined;
    }
    return {
      familyId: claims.sid,
      companyId: claims.company_id as number,
      ...(subject[1] === 'client' && { apiClientId: Number(subject[2]) }),
    };
  }
}

function decode(part: string | undefined): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(part ?? '', 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
