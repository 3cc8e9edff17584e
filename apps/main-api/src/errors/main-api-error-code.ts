/** main-api error codes (docs/spec/decisions.md §4); the body is always `PlatformCustomError`. */
export enum MainApiErrorCode {
  InvalidAttachmentSource = 'AC001',
  ValidationFailed = 'AC002',
  NotFound = 'AC003',
  BusinessRuleViolated = 'AC004',
  Unauthenticated = 'AC005',
  Forbidden = 'AC006',
  RateLimited = 'AC007',
  PayloadTooLarge = 'AC008',
  /** `If-Match` names a version the resource no longer has (412). */
  PreconditionFailed = 'AC009',
  ServiceUnavailable = 'AC503',
  Unexpected = 'AC500',
}

export const MAIN_API_ERROR_NAME = 'PlatformCustomError';
