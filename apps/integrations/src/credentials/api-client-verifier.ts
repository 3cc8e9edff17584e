import { Injectable } from '@nestjs/common';
import { PrincipalContext } from '@platform/auth';
import { Role } from '@platform/contracts';
import { MainApiRequestError } from '@platform/main-api-client';
import { RequestValidationError } from '@platform/runtime';
import { IntegrationsErrorCode } from '../errors/integrations-error-code';
import { IntegrationsError } from '../errors/integrations.errors';
import { claimsOf, MainApiTokens } from './main-api-tokens';

const ROLES_THAT_MAY_ACT = new Set<unknown>([Role.CLevel, Role.Director]);
/** main-api's answers to client credentials it does not accept (RFC 6749 §5.2). */
const REFUSED_CREDENTIALS = new Set([400, 401, 403]);

/** API client credentials given to the service (`api_key`, `client_secret` of a body). */
export interface ApiClientCredentials {
  api_key: string;
  client_secret: string;
}

/**
 * Checks, with main-api, API client credentials a C-Level user hands to the service (a webhook
 * source applies events with them, a subscription reads the change feed with them): they must
 * work, belong to the caller's company and carry role 1 or 2. Anything else is a 400 naming api_key.
 */
@Injectable()
export class ApiClientVerifier {
  constructor(
    private readonly tokens: MainApiTokens,
    private readonly principals: PrincipalContext,
  ) {}

  async verify(credentials: ApiClientCredentials, purpose: string): Promise<void> {
    // A cached token is one main-api issued for this very key and secret (the cache is keyed by both).
    let token: string;
    try {
      token = await this.tokens.tokenFor(credentials.api_key, credentials.client_secret);
    } catch (error) {
      if (error instanceof MainApiRequestError && REFUSED_CREDENTIALS.has(error.status)) {
        throw invalidCredentials('main-api refused api_key and client_secret');
      }
      if (error instanceof MainApiRequestError) {
        // Not about the credentials (e.g. 429): main-api's answer, passed on (docs/spec/decisions.md §4).
        throw new IntegrationsError(
          'MainApiError',
          IntegrationsErrorCode.ApiRequest,
          error.status,
          error.upstreamMessage,
        );
      }
      throw error;
    }
    const claims = claimsOf(token);
    if (claims.company_id !== this.principals.companyId()) {
      throw invalidCredentials('the API client belongs to another company');
    }
    if (!ROLES_THAT_MAY_ACT.has(claims.role_id)) {
      throw invalidCredentials(`the API client needs role 1 (C-Level) or 2 (Director) to ${purpose}`);
    }
  }
}

function invalidCredentials(reason: string): RequestValidationError {
  return new RequestValidationError([
    { field: 'api_key', validation: 'validApiClient', message: `api_key and client_secret: ${reason}` },
  ]);
}
