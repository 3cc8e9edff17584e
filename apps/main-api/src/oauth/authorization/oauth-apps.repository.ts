import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { TenantScopes, type TenantScope } from '@platform/database';
import { IsNull } from 'typeorm';
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

/** The columns of an app, as the entity names them. */
const APP_COLUMNS = `id, company_id AS "companyId", name, client_id AS "clientId", redirect_uris AS "redirectUris",
  created_at AS "createdAt", revoked_at AS "revokedAt"`;

/**
 * Registered public clients. Lookups by client_id span companies (purpose `authentication`): the
 * client_id is what names one.
 */
@Injectable()
export class OAuthAppsRepository {
  private readonly authentication: TenantScope;

  constructor(scopes: TenantScopes) {
    this.authentication = scopes.acrossCompanies('authentication');
  }

  /** The app with this client_id, unless it is unknown or revoked. */
  async findActive(clientId: string): Promise<OAuthApp | null> {
    const [app] = await this.authentication.sql.select<OAuthApp>(
      `SELECT ${APP_COLUMNS} FROM oauth_apps WHERE client_id = $1 AND revoked_at IS NULL`,
      [clientId],
    );
    return app ?? null;
  }

  /**
   * Revokes the app with this client_id in the scope of its company: it signs nobody in any more,
   * and the logins started through it end (their refreshes and, through DatabaseTokenStatus, their
   * access tokens). Answers when it was revoked (the first time, if it already was); undefined for
   * an app the company does not have. Used by provisioning, hence the static form.
   */
  static async revoke(company: TenantScope, clientId: string): Promise<Date | undefined> {
    await company
      .repository(OAuthApp)
      .updateWhere({ clientId, revokedAt: IsNull() }, { revokedAt: () => 'now()' });
    const [app] = await company.sql.select<{ revoked_at: Date }>(
      'SELECT revoked_at FROM oauth_apps WHERE client_id = $1',
      [clientId],
    );
    return app?.revoked_at;
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
