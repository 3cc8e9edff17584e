import { createHash } from 'node:crypto';
import type { ThrottlerModuleOptions } from '@nestjs/throttler';
import type { MainApiEnv } from '../../config/main-api.env';

interface TokenRequestLike {
  ip: string;
  headers: Record<string, string | string[] | undefined>;
  body?: unknown;
}

/**
 * Which client a token request speaks for, before it is authenticated: the API key of Basic auth,
 * the username of the password grant, or the refresh token (hashed: never kept in clear).
 */
export function clientOf(request: TokenRequestLike): string {
  const authorization = request.headers.authorization;
  if (typeof authorization === 'string' && authorization.startsWith('Basic ')) {
    const decoded = Buffer.from(authorization.slice(6), 'base64').toString('utf8');
    return `key:${decoded.split(':')[0]}`;
  }
  const body = (request.body ?? {}) as { username?: unknown; refresh_token?: unknown };
  if (typeof body.username === 'string') {
    return `user:${body.username.toLowerCase()}`;
  }
  if (typeof body.refresh_token === 'string') {
    return `refresh:${createHash('sha256').update(body.refresh_token).digest('hex')}`;
  }
  return `ip:${request.ip}`;
}

export function tokenThrottlers(env: MainApiEnv): ThrottlerModuleOptions {
  const ttl = env.TOKEN_RATE_LIMIT_WINDOW_SECONDS * 1000;
  return {
    throttlers: [
      {
        name: 'ip',
        ttl,
        limit: env.TOKEN_RATE_LIMIT_PER_IP,
        getTracker: (request: Record<string, unknown>) => (request as unknown as TokenRequestLike).ip,
      },
      {
        name: 'client',
        ttl,
        limit: env.TOKEN_RATE_LIMIT_PER_CLIENT,
        getTracker: (request: Record<string, unknown>) => clientOf(request as unknown as TokenRequestLike),
      },
    ],
  };
}
