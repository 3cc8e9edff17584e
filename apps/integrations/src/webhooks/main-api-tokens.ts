import { Injectable } from '@nestjs/common';
import { MainApiClient } from '@platform/main-api-client';

interface CachedToken {
  value: string;
  expiresAt: number;
}

/**
 * Access tokens for an API client (client credentials), cached until shortly before they expire:
 * webhooks carry no bearer token, so their events reach main-api as the API client configured for
 * the sending system. Per replica, in memory: a token is cheap to get again.
 */
@Injectable()
export class MainApiTokens {
  private readonly cache = new Map<string, CachedToken>();

  constructor(private readonly client: MainApiClient) {}

  async tokenFor(apiKey: string, clientSecret: string): Promise<string> {
    const cached = this.cache.get(apiKey);
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
    // A minute early, so no event is applied with a token that expires on the way.
    this.cache.set(apiKey, {
      value: answer.access_token,
      expiresAt: Date.now() + (answer.expires_in - 60) * 1000,
    });
    return answer.access_token;
  }

  forget(apiKey: string): void {
    this.cache.delete(apiKey);
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
