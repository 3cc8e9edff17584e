/**
 * The 503 of a route that answers a secret: it confirms the caller's token with main-api on every
 * request (`@FreshTokenStatus()`, libs/auth), so main-api being unreachable refuses it.
 */
export const SECRET_MINTING_UNAVAILABLE =
  'MainApiUnavailableError (ZC003): main-api did not answer, or could not confirm just now that the access token is still valid (this route asks afresh, as it answers a secret); retry after Retry-After';

/**
 * The 429 of a route that checks an API client's credentials with main-api: main-api's throttle of
 * failed credential checks, passed on (docs/spec/decisions.md §4).
 */
export const CREDENTIAL_CHECK_THROTTLED =
  'MainApiError (ZC003): main-api throttled the check of api_key and client_secret after too many failures; retry later';
