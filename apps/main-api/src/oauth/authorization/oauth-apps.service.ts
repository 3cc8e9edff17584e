import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource, IsNull } from 'typeorm';
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

/** Registered public clients. Lookups by client_id span companies: the client_id is what names one. */
@Injectable()
export class OAuthApps {
  constructor(private readonly dataSource: DataSource) {}

  /** The app with this client_id, unless it is unknown or revoked. */
  findActive(clientId: string): Promise<OAuthApp | null> {
    return this.dataSource.getRepository(OAuthApp).findOne({ where: { clientId, revokedAt: IsNull() } });
  }

  /** Used by provisioning (a plain DataSource there, hence the static form). */
  static async register(dataSource: DataSource, request: RegisterAppRequest): Promise<RegisteredApp> {
    const problems = request.redirectUris.map(redirectUriProblem).filter((problem) => problem !== undefined);
    if (request.redirectUris.length === 0 || problems.length > 0) {
      throw new Error(problems[0] ?? 'at least one --redirect-uri is required');
    }
    const app = await dataSource.getRepository(OAuthApp).save({
      companyId: request.companyId,
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
