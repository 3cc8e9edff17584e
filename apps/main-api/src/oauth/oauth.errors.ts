/** RFC 6749 §5.2 error codes used by the token endpoints. */
export type OAuthErrorCode =
  'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unsupported_grant_type';

/** A token-endpoint failure, answered as `{error, error_description}` (not the PlatformCustomError body). */
export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
  ) {
    super(description);
    this.name = 'OAuthError';
  }

  /** 401 for failed client authentication, 400 for everything else (RFC 6749 §5.2). */
  get status(): number {
    return this.error === 'invalid_client' ? 401 : 400;
  }
}
