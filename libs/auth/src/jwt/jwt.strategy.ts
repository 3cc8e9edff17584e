import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { IncomingMessage } from 'node:http';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { ACCESS_TOKEN_ALGORITHM } from '../keys/jwk';
import { VerificationKeySource } from '../keys/verification-key-source';
import type { AccessTokenClaims, Principal } from '../principal/principal';
import { accessTokenKeyId, InvalidTokenError, principalOfClaims } from './access-token-claims';
import { JWT_SETTINGS, type JwtSettings } from './jwt-settings';

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
        const kid = accessTokenKeyId(rawToken);
        if (kid === undefined) {
          done(new InvalidTokenError('unsupported token header'));
          return;
        }
        keys.keyFor(kid).then(
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
    return principalOfClaims(claims);
  }
}
