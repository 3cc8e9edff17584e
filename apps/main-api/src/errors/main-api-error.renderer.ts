import { MAIN_API_ERROR_NAME, MainApiErrorCode } from '@platform/contracts';
import type { FailureKind, NormalizedFailure, RenderedError } from '@platform/runtime';
import { businessRuleOf } from './constraint-errors';
import { InvalidAttachmentSourceError } from './invalid-attachment-source.error';

/** Every main-api failure as `{status, name: "PlatformCustomError", code, message, errors?}` (docs/spec/decisions.md §4). */
export function renderMainApiError(normalized: NormalizedFailure, exception: unknown): RenderedError {
  const rule = businessRuleOf(exception);
  const failure: NormalizedFailure = rule
    ? { kind: 'unprocessable', status: rule.status, message: rule.message }
    : normalized;
  const code =
    exception instanceof InvalidAttachmentSourceError
      ? MainApiErrorCode.InvalidAttachmentSource
      : codeFor(failure.kind);
  return {
    status: failure.status,
    body: {
      status: failure.status,
      name: MAIN_API_ERROR_NAME,
      code,
      message: failure.message,
      ...(failure.fieldErrors ? { errors: failure.fieldErrors } : {}),
    },
  };
}

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
      return MainApiErrorCode.BusinessRuleViolated;
    case 'rate_limited':
      return MainApiErrorCode.RateLimited;
    case 'upstream_unavailable':
    case 'shutting_down':
      return MainApiErrorCode.ServiceUnavailable;
    case 'database':
    case 'internal':
      return MainApiErrorCode.Unexpected;
  }
}
