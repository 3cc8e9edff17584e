import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { MainApiClient } from '@platform/main-api-client';

interface CachedToken {
  apiKey: string;
  value: string;
  expiresAt: number;
}

/**
 * Access tokens for an API client (client credentials), cached until shortly before they expire:
 * webhooks carry no bearer token, and the delivery worker reads the change feed outside any request,
 * so both reach main-api as an API client configured by a C-Level user. Per replica, in memory: a
 * token is cheap to get again.
 */
@Injectable()
export class MainApiTokens {
  // Keyed by the key and a digest of the secret: a wrong secret never gets a token cached for the right one.
  private readonly cache = new Map<string, CachedToken>();

  constructor(private readonly client: MainApiClient) {}

  async tokenFor(apiKey: string, clientSecret: string): Promise<string> {
    const cacheKey = `${apiKey}\u0000${createHash('sha256').update(clientSecret).digest('base64')}`;
    const cached = this.cache.get(cacheKey);
    if (cached && cached.expiresAt > Date.now()) {
      return cached.value;
    }
    const basic = Buffer.from(`${apiKey}:${clientSecret}`).toString('base64');
    const answer = await this.client.request<{ access_token: string; expires_in: number }>({
      method: 'POST',
      path: '/v1/oauth/token',
      query: { grant_type: 'client_credentials' },
      caller: { authorization: `Basic ${basic}` },
    });
    // A minute early, so no call is made with a token that expires on the way.
    this.cache.set(cacheKey, {
      apiKey,
      value: answer.access_token,
      expiresAt: Date.now() + (answer.expires_in - 60) * 1000,
    });
    return answer.access_token;
  }

  forget(apiKey: string): void {
    for (const [cacheKey, cached] of this.cache) {
      if (cached.apiKey === apiKey) {
        this.cache.delete(cacheKey);
      }
    }
  }
}

/** The claims of a token main-api just gave us over our own connection (no need to verify it again). */
export function claimsOf(token: string): { company_id?: unknown; role_id?: unknown } {
  const [, payload] = token.split('.');
  try {
    return JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8')) as { company_id?: unknown };
  } catch {
    return {};
  }
}
