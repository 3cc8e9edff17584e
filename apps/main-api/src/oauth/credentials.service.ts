import { Injectable, Logger } from '@nestjs/common';
import { hashClientSecret, verifyClientSecret } from '../security/client-secrets';
import { hashPassword, verifyPassword, type DerivationTicket } from '../security/password-hashing';
import { CredentialsRepository, type AccountRow } from './credentials.repository';
import type { AccessTokenSubject } from './keys/access-token-signer';

/** An account that may obtain tokens, as the token it gets describes it. */
export interface TokenAccount extends AccessTokenSubject {
  id: number;
  /** An API client's key, the `client_id` of its tokens. */
  apiKey?: string;
}

// Compared against when the API key does not exist, so the answer takes as long either way.
const DECOY_CLIENT_SECRET_HASH = hashClientSecret('decoy-secret-that-matches-nothing');

/**
 * Checks credentials of the token endpoints and reads the accounts tokens are issued for, with
 * their current token epoch (CredentialsRepository).
 */
@Injectable()
export class CredentialsService {
  private readonly logger = new Logger(CredentialsService.name);
  // Verifying a password against a real hash when the account does not exist keeps response times
  // equal, so timing does not reveal which e-mails exist.
  private decoyPasswordHash?: Promise<string>;

  constructor(private readonly accounts: CredentialsRepository) {}

  async apiClientFor(apiKey: string, secret: string): Promise<TokenAccount | undefined> {
    const row = await this.accounts.apiClientByKey(apiKey);
    const stored = row?.hash ?? DECOY_CLIENT_SECRET_HASH;
    const check = await verifyClientSecret(secret, stored);
    if (!row || !check.matches) {
      return undefined;
    }
    if (check.outdated) {
      // A secret stored before SHA-256: upgraded on its first successful use.
      await this.accounts.replaceClientSecretHash(row.company_id, row.id, stored, hashClientSecret(secret));
    }
    return accountOf('client', row);
  }

  /** `queue`: the hashing lane the check waits in, and the sender whose share it takes. */
  async userFor(email: string, password: string, queue: DerivationTicket): Promise<TokenAccount | undefined> {
    const row = await this.accounts.userByEmail(email);
    this.decoyPasswordHash ??= hashPassword('decoy-password-that-matches-nothing');
    const check = await verifyPassword(password, row?.hash ?? (await this.decoyPasswordHash), queue);
    if (!row?.hash || !check.matches) {
      return undefined;
    }
    if (check.outdated) {
      this.upgradePasswordHash(row.company_id, row.id, row.hash, password);
    }
    return accountOf('user', row);
  }

  /** The API client of `companyId` a refresh token was issued to, if it may still obtain tokens. */
  async activeApiClient(companyId: number, id: number): Promise<TokenAccount | undefined> {
    const row = await this.accounts.activeApiClient(companyId, id);
    return row ? accountOf('client', row) : undefined;
  }

  /** The user of `companyId` a token was issued to, if it may still obtain tokens (not deleted). */
  async activeUser(companyId: number, id: number): Promise<TokenAccount | undefined> {
    const row = await this.accounts.activeUser(companyId, id);
    return row ? accountOf('user', row) : undefined;
  }

  /** Rehashes with today's parameters after the answer is sent: the login does not wait for it. */
  private upgradePasswordHash(companyId: number, userId: number, stored: string, password: string): void {
    hashPassword(password)
      .then((upgraded) => this.accounts.replacePasswordHash(companyId, userId, stored, upgraded))
      .catch((error: unknown) => {
        // Busy or failed: the old hash still works, and the next login tries again.
        this.logger.warn(`password hash of user ${userId} not upgraded: ${String(error)}`);
      });
  }
}

export function accountOf(kind: 'user' | 'client', row: AccountRow): TokenAccount {
  return {
    id: row.id,
    subject: `${kind}:${row.id}`,
    companyId: row.company_id,
    roleId: row.role_id,
    epoch: row.epoch,
    ...(row.api_key !== undefined && { apiKey: row.api_key }),
  };
}
