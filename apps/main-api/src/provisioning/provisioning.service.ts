import { randomBytes } from 'node:crypto';
import { Role } from '@platform/contracts';
import { TenantScopes } from '@platform/database';
import type { DataSource } from 'typeorm';
import { ApiClient } from '../api-clients/api-client.entity';
import { Company } from '../companies/company.entity';
import {
  OAuthAppsRepository,
  type RegisterAppRequest,
  type RegisteredApp,
} from '../oauth/authorization/oauth-apps.repository';
import { hashClientSecret, newClientSecret } from '../security/client-secrets';
import { hashPassword, randomToken } from '../security/password-hashing';
import { User } from '../users/user.entity';

export interface AddUserRequest {
  companyId: number;
  email: string;
  firstName: string;
  lastName: string;
  roleId: number;
  password?: string;
}

export interface AddClientRequest {
  companyId: number;
  name: string;
  roleId: number;
}

export interface ProvisionRequest {
  companyName: string;
  email: string;
  firstName: string;
  lastName: string;
  /** Generated when absent. */
  password?: string;
  baseCurrencyId?: number;
}

/** What the provisioning command prints: the only time the password and client secret are shown. */
export interface ProvisionedCompany {
  companyId: number;
  userId: number;
  email: string;
  password: string;
  apiKey: string;
  clientSecret: string;
}

/**
 * Creates a company with its first C-Level user and an API client, all or nothing (docs/spec/decisions.md §3).
 * Plain class over a DataSource so the CLI and the tests use it without booting Nest. The company is
 * found and created in the cross-company scope of purpose `provisioning`; everything of a company
 * (users, API clients, apps) is written in that company's scope.
 */
export class ProvisioningService {
  private readonly scopes: TenantScopes;

  constructor(dataSource: DataSource) {
    this.scopes = new TenantScopes(dataSource);
  }

  async findCompanyIdByName(name: string): Promise<number | undefined> {
    const [company] = await this.scopes
      .acrossCompanies('provisioning')
      .sql.select<{ id: number }>('SELECT id FROM companies WHERE name = $1 ORDER BY id LIMIT 1', [name]);
    return company?.id;
  }

  /** Another user for an existing company; the password is shown once. */
  async addUser(
    request: AddUserRequest,
  ): Promise<{ companyId: number; userId: number; email: string; password: string; roleId: number }> {
    await this.assertCompanyExists(request.companyId);
    const password = request.password ?? randomToken(12);
    const user = await this.scopes
      .forCompany(request.companyId)
      .repository(User)
      .create({
        email: request.email.toLowerCase(),
        firstName: request.firstName,
        lastName: request.lastName,
        roleId: request.roleId,
        passwordHash: await hashPassword(password),
      });
    return {
      companyId: request.companyId,
      userId: user.id,
      email: user.email,
      password,
      roleId: user.roleId,
    };
  }

  /** Another API client for an existing company; the secret is shown once. */
  async addClient(
    request: AddClientRequest,
  ): Promise<{ companyId: number; clientId: number; apiKey: string; clientSecret: string; roleId: number }> {
    await this.assertCompanyExists(request.companyId);
    const clientSecret = newClientSecret();
    const client = await this.scopes
      .forCompany(request.companyId)
      .repository(ApiClient)
      .create({
        name: request.name,
        apiKey: newApiKey(),
        secretHash: hashClientSecret(clientSecret),
        roleId: request.roleId,
      });
    return {
      companyId: request.companyId,
      clientId: client.id,
      apiKey: client.apiKey,
      clientSecret,
      roleId: client.roleId,
    };
  }

  /** A browser app (public client, no secret) of an existing company, with its exact redirect URIs. */
  async addApp(request: RegisterAppRequest): Promise<RegisteredApp> {
    await this.assertCompanyExists(request.companyId);
    return OAuthAppsRepository.register(this.scopes.forCompany(request.companyId), request);
  }

  /** Revokes a browser app of the company (OAuthAppsRepository.revoke). */
  async revokeApp(request: {
    companyId: number;
    clientId: string;
  }): Promise<{ companyId: number; clientId: string; revokedAt: Date }> {
    await this.assertCompanyExists(request.companyId);
    const revokedAt = await OAuthAppsRepository.revoke(
      this.scopes.forCompany(request.companyId),
      request.clientId,
    );
    if (revokedAt === undefined) {
      throw new Error(`company ${request.companyId} has no app with client_id ${request.clientId}`);
    }
    return { companyId: request.companyId, clientId: request.clientId, revokedAt };
  }

  private async assertCompanyExists(companyId: number): Promise<void> {
    // The companies table's policy shows a company its own row.
    const [company] = await this.scopes
      .forCompany(companyId)
      .sql.select<{ id: number }>('SELECT id FROM companies WHERE id = $1', [companyId]);
    if (!company) {
      throw new Error(`company ${companyId} does not exist`);
    }
  }

  async provision(request: ProvisionRequest): Promise<ProvisionedCompany> {
    const password = request.password ?? randomToken(12);
    const clientSecret = newClientSecret();
    const apiKey = newApiKey();
    const passwordHash = await hashPassword(password);
    const secretHash = hashClientSecret(clientSecret);

    // One transaction, all or nothing: the company is created across companies (there is none to
    // scope to yet), then its user and API client in its own scope, on the same connection.
    return this.scopes.acrossCompanies('provisioning').transaction(async (unit) => {
      const company = await unit.manager.getRepository(Company).save({
        name: request.companyName,
        baseCurrencyId: request.baseCurrencyId ?? 1,
      });
      const scope = unit.forCompany(company.id);
      const user = await scope.repository(User).create({
        email: request.email.toLowerCase(),
        firstName: request.firstName,
        lastName: request.lastName,
        roleId: Role.CLevel,
        passwordHash,
      });
      await scope.repository(ApiClient).create({
        name: `${request.companyName} API client`,
        apiKey,
        secretHash,
        roleId: Role.CLevel,
      });
      return { companyId: company.id, userId: user.id, email: user.email, password, apiKey, clientSecret };
    });
  }
}

function newApiKey(): string {
  return `ak_${randomBytes(12).toString('hex')}`;
}
