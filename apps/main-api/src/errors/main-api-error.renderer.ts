import type { FailureKind, NormalizedFailure, RenderedError } from '@platform/runtime';
import { MAIN_API_ERROR_NAME, MainApiErrorCode } from './main-api-error-code';
import { constraintErrorOf } from './constraint-errors';
import { MainApiError } from './main-api.errors';

/** Every main-api failure as `{status, name: "PlatformCustomError", code, message, errors?}` (docs/spec/decisions.md §4). */
export function renderMainApiError(normalized: NormalizedFailure, exception: unknown): RenderedError {
  const named = exception instanceof MainApiError ? exception : constraintErrorOf(exception);
  const { status, code, message, fieldErrors } = named ?? { ...normalized, code: codeFor(normalized.kind) };
  return {
    status,
    body: {
      status,
      name: MAIN_API_ERROR_NAME,
      code,
      message,
      ...(fieldErrors ? { errors: fieldErrors } : {}),
    },
  };
}

/** The code of a failure no feature named: framework, validation and database errors. */
function codeFor(kind: FailureKind): MainApiErrorCode {
  switch (kind) {
    case 'validation':
    case 'malformed_request':
    case 'unsupported_media_type':
      return MainApiErrorCode.ValidationFailed;
    case 'payload_too_large':
      return MainApiErrorCode.PayloadTooLarge;
    case 'unauthenticated':
      return MainApiErrorCode.Unauthenticated;
    case 'forbidden':
      return MainApiErrorCode.Forbidden;
    case 'not_found':
    case 'method_not_allowed':
      return MainApiErrorCode.NotFound;
    case 'conflict':
    case 'unprocessable':
    case 'failed_dependency':
      return MainApiErrorCode.BusinessRuleViolated;
    case 'rate_limited':
      return MainApiErrorCode.RateLimited;
    case 'precondition_failed':
    case 'precondition_required':
      return MainApiErrorCode.PreconditionFailed;
    case 'upstream_unavailable':
    case 'shutting_down':
      return MainApiErrorCode.ServiceUnavailable;
    case 'database':
    case 'internal':
      return MainApiErrorCode.Unexpected;
  }
}
