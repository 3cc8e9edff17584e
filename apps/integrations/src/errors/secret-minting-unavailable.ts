/**
 * The 503 of a route that answers a secret: it confirms the caller's token with main-api on every
 * request (`@FreshTokenStatus()`, libs/auth), so main-api being unreachable refuses it.
 */
export const SECRET_MINTING_UNAVAILABLE =
  'MainApiUnavailableError (ZC003): main-api did not answer, or could not confirm just now that the access token is still valid (this route asks afresh, as it answers a secret); retry after Retry-After';
