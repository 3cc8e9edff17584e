import { Injectable } from '@nestjs/common';
import { AccessTokenVerifier } from '@platform/auth';
import { DatabaseTokenStatus } from './database-token-status';

/**
 * Which of many tokens no longer count, for a service that holds them (the planner's change
 * streams): each is verified as a bearer token would be, then every verified one's login is looked
 * up in one statement (DatabaseTokenStatus.revokedAmong), whatever their companies.
 */
@Injectable()
export class RevokedTokens {
  constructor(
    private readonly verifier: AccessTokenVerifier,
    private readonly status: DatabaseTokenStatus,
  ) {}

  async among(tokens: readonly string[]): Promise<boolean[]> {
    const principals = await Promise.all(tokens.map((token) => this.verifier.verify(token)));
    const verified = tokens.flatMap((token, index) => {
      const principal = principals[index];
      return principal ? [{ principal, token }] : [];
    });
    const revoked = await this.status.revokedAmong(verified);
    // The verified tokens' answers, in their order; a token that does not verify does not count either.
    let next = 0;
    return principals.map((principal) => (principal ? revoked[next++] : true));
  }
}
