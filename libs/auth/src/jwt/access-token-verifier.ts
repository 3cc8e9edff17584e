import { Inject, Injectable } from '@nestjs/common';
import jwt from 'jsonwebtoken';
import { ACCESS_TOKEN_ALGORITHM } from '../keys/jwk';
import { VerificationKeySource } from '../keys/verification-key-source';
import type { AccessTokenClaims, Principal } from '../principal/principal';
import { accessTokenKeyId, principalOfClaims } from './access-token-claims';
import { JWT_SETTINGS, type JwtSettings } from './jwt-settings';

/**
 * Verifies a token given in a body rather than a header, with the checks the guard's JwtStrategy
 * makes (through the same jsonwebtoken that passport-jwt calls): the header, a published `kid`, the
 * signature, `iss`, `aud`, `exp` with the same leeway, and the claims.
 */
@Injectable()
export class AccessTokenVerifier {
  constructor(
    @Inject(JWT_SETTINGS) private readonly settings: JwtSettings,
    private readonly keys: VerificationKeySource,
  ) {}

  /** The token's principal, or undefined when it is not a valid access token now. */
  async verify(token: string): Promise<Principal | undefined> {
    const kid = accessTokenKeyId(token);
    const key = kid === undefined ? undefined : await this.keys.keyFor(kid);
    if (!key) {
      return undefined;
    }
    try {
      const claims = jwt.verify(token, key, {
        algorithms: [ACCESS_TOKEN_ALGORITHM],
        issuer: this.settings.issuer,
        audience: this.settings.audience,
        clockTolerance: this.settings.clockToleranceSeconds ?? 30,
      });
      return typeof claims === 'object' ? principalOfClaims(claims as Partial<AccessTokenClaims>) : undefined;
    } catch {
      return undefined;
    }
  }
}
