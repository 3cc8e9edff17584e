import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { TenantScopes, type TenantScope } from '@platform/database';
import { IsNull, Repository } from 'typeorm';
import { OAuthApp } from './oauth-app.entity';
import { redirectUriProblem } from './redirect-uris';

export interface RegisterAppRequest {
  companyId: number;
  name: string;
  redirectUris: string[];
}

/** What registering an app answers: the client_id a browser app is configured with. */
export interface RegisteredApp {
  companyId: number;
  appId: number;
  clientId: string;
  name: string;
  redirectUris: string[];
  tokenEndpointAuthMethod: 'none';
}

/**
 * Registered public clients. Lookups by client_id span companies (purpose `authentication`): the
 * client_id is what names one.
 */
@Injectable()
export class OAuthApps {
  private readonly authentication: TenantScope;

  constructor(
    @InjectRepository(OAuthApp) private readonly apps: Repository<OAuthApp>,
    scopes: TenantScopes,
  ) {
    this.authentication = scopes.acrossCompanies('authentication');
  }

  /** The app with this client_id, unless it is unknown or revoked. */
  findActive(clientId: string): Promise<OAuthApp | null> {
    return this.authentication.run(() => this.apps.findOne({ where: { clientId, revokedAt: IsNull() } }));
  }

  /**
   * Used by provisioning (no Nest there, hence the static form), in the scope of the app's company
   * (`request.companyId`).
   */
  static async register(company: TenantScope, request: RegisterAppRequest): Promise<RegisteredApp> {
    const problems = request.redirectUris.map(redirectUriProblem).filter((problem) => problem !== undefined);
    if (request.redirectUris.length === 0 || problems.length > 0) {
      throw new Error(problems[0] ?? 'at least one --redirect-uri is required');
    }
    if (company.companyId() !== request.companyId) {
      throw new Error('an app is registered in the scope of its own company');
    }
    const app = await company.repository(OAuthApp).create({
      name: request.name,
      clientId: `app_${randomBytes(12).toString('hex')}`,
      redirectUris: [...new Set(request.redirectUris)],
    });
    return {
      companyId: app.companyId,
      appId: app.id,
      clientId: app.clientId,
      name: app.name,
      redirectUris: app.redirectUris,
      tokenEndpointAuthMethod: 'none',
    };
  }
}
