import { Injectable } from '@nestjs/common';
import { DataSource, IsNull } from 'typeorm';
import { ApiClient } from '../api-clients/api-client.entity';
import { hashSecret, verifySecret } from '../security/secret-hashing';
import { User } from '../users/user.entity';

/**
 * Checks credentials of the token endpoints. Credential lookups are the one place that reads users
 * and API clients across companies: the caller's company is what they establish.
 */
@Injectable()
export class CredentialsService {
  // Verifying against a real hash when the account does not exist keeps response times equal, so
  // timing does not reveal which e-mails or API keys exist.
  private readonly decoyHash = hashSecret('decoy-secret-that-matches-nothing');

  constructor(private readonly dataSource: DataSource) {}

  async apiClientFor(apiKey: string, secret: string): Promise<ApiClient | undefined> {
    const client = await this.dataSource.getRepository(ApiClient).findOne({
      where: { apiKey, revokedAt: IsNull() },
      select: { id: true, companyId: true, roleId: true, secretHash: true },
    });
    const matches = await verifySecret(secret, client?.secretHash ?? (await this.decoyHash));
    return client && matches ? client : undefined;
  }

  async userFor(email: string, password: string): Promise<User | undefined> {
    const user = await this.dataSource
      .getRepository(User)
      .createQueryBuilder('user')
      .addSelect('user.passwordHash')
      .where('lower(user.email) = lower(:email)', { email })
      .andWhere('user.deleted_at IS NULL')
      .getOne();
    const matches = await verifySecret(password, user?.passwordHash ?? (await this.decoyHash));
    return user?.passwordHash && matches ? user : undefined;
  }

  /** The subject of a refresh token, if it may still obtain tokens (not deleted, not revoked). */
  async activeApiClient(id: number): Promise<ApiClient | null> {
    return this.dataSource.getRepository(ApiClient).findOne({ where: { id, revokedAt: IsNull() } });
  }

  async activeUser(id: number): Promise<User | null> {
    return this.dataSource.getRepository(User).findOne({ where: { id } });
  }
}
