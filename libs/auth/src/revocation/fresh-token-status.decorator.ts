import { SetMetadata } from '@nestjs/common';

export const FRESH_TOKEN_STATUS_KEY = 'platform:freshTokenStatus';

/**
 * For routes that mint a secret (a webhook source's or a subscription's signing secret, an API
 * client's): the guard asks the token's status now, instead of trusting that it was confirmed
 * live within the last 30 s, so a token revoked a moment ago cannot obtain a secret that outlives
 * it. When the status cannot be confirmed now, the route answers 503 with Retry-After.
 */
export const FreshTokenStatus = (): MethodDecorator & ClassDecorator =>
  SetMetadata(FRESH_TOKEN_STATUS_KEY, true);
