import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { ROLE_IDS, type Role } from '@platform/contracts';
import type { IncomingMessage } from 'node:http';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { ACCESS_TOKEN_ALGORITHM, isAccessTokenType } from '../keys/jwk';
import { VerificationKeySource } from '../keys/verification-key-source';
import type { AccessTokenClaims, Principal } from '../principal/principal';
import { JWT_SETTINGS, type JwtSettings } from './jwt-settings';

const SUBJECT = /^(user|client):([1-9]\d{0,9})$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Rejections that passport reports as "info"; the guard turns them into 401 messages. */
export class InvalidTokenError extends Error {}

/**
 * Verifies bearer tokens: RS256 only (`none` and HMAC are refused before any key is looked up), a
 * `kid` published by main-api, then signature, `iss`, `aud` and `exp` with a small leeway.
 */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(@Inject(JWT_SETTINGS) settings: JwtSettings, keys: VerificationKeySource) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      algorithms: [ACCESS_TOKEN_ALGORITHM],
      issuer: settings.issuer,
      audience: settings.audience,
      ignoreExpiration: false,
      jsonWebTokenOptions: { clockTolerance: settings.clockToleranceSeconds ?? 30 },
      secretOrKeyProvider: (
        _request: IncomingMessage,
        rawToken: string,
        done: (error: Error | null, key?: string) => void,
      ) => {
        const header = decodeHeader(rawToken);
        // `typ` too: only a JWT that says it is an access token is one (RFC 9068, RFC 8725 §3.11).
        if (
          !header ||
          header.alg !== ACCESS_TOKEN_ALGORITHM ||
          !isAccessTokenType(header.typ) ||
          typeof header.kid !== 'string'
        ) {
          done(new InvalidTokenError('unsupported token header'));
          return;
        }
        keys.keyFor(header.kid).then(
          (key) =>
            key
              ? // The KeyObject itself (jsonwebtoken 9 takes one): exporting a PEM for it to parse
                // back cost a key export and a key import on every request.
                done(null, key as unknown as string)
              : done(new InvalidTokenError('unknown signing key')),
          (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
        );
      },
    });
  }

  validate(claims: Partial<AccessTokenClaims>): Principal {
    const subject = typeof claims.sub === 'string' ? SUBJECT.exec(claims.sub) : null;
    if (
      !subject ||
      !Number.isSafeInteger(claims.company_id) ||
      (claims.company_id ?? 0) < 1 ||
      !ROLE_IDS.includes(claims.role_id as Role) ||
      typeof claims.jti !== 'string' ||
      (claims.sid !== undefined && (typeof claims.sid !== 'string' || !UUID.test(claims.sid))) ||
      (claims.epoch !== undefined && !(Number.isSafeInteger(claims.epoch) && claims.epoch >= 0))
    ) {
      throw new InvalidTokenError('malformed claims');
    }
    const id = Number(subject[2]);
    return {
      subject: claims.sub as string,
      companyId: claims.company_id as number,
      roleId: claims.role_id as Role,
      ...(subject[1] === 'user' ? { userId: id } : { clientId: id }),
      tokenId: claims.jti,
      ...(claims.sid !== undefined && { sessionId: claims.sid }),
      epoch: claims.epoch ?? 0,
    };
  }
}

function decodeHeader(rawToken: string): { alg?: unknown; typ?: unknown; kid?: unknown } | undefined {
  try {
    const header: unknown = JSON.parse(
      Buffer.from(rawToken.split('.')[0] ?? '', 'base64url').toString('utf8'),
    );
    return typeof header === 'object' && header !== null ? header : undefined;
  } catch {
    return undefined;
  }
}
