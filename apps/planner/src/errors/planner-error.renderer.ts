import { AllocationErrorName } from '@platform/contracts';
import type { FailureKind, NormalizedFailure, RenderedError } from '@platform/runtime';

/** Every planner failure as `{error, message}` (interfaces.md "Allocation error body", decisions §4). */
export function renderPlannerError(failure: NormalizedFailure): RenderedError {
  const fieldMessages = failure.fieldErrors?.map((fieldError) => fieldError.message);
  return {
    status: failure.status,
    body: {
      error: errorNameFor(failure.kind),
      message: fieldMessages && fieldMessages.length > 0 ? fieldMessages.join('; ') : failure.message,
    },
  };
}

function errorNameFor(kind: FailureKind): string {
  switch (kind) {
    case 'validation':
    case 'malformed_request':
      return AllocationErrorName.InvalidAllocation;
    case 'unsupported_media_type':
      return 'UnsupportedMediaTypeError';
    case 'payload_too_large':
      return 'PayloadTooLargeError';
    case 'unauthenticated':
      return 'Unauthorized';
    case 'forbidden':
      return 'Forbidden';
    case 'not_found':
      return 'NotFoundError';
    case 'method_not_allowed':
      return 'MethodNotAllowedError';
    case 'conflict':
      return 'ConflictError';
    case 'unprocessable':
      return 'UnprocessableEntityError';
    case 'rate_limited':
      return 'TooManyRequestsError';
    case 'upstream_unavailable':
      return 'MainApiUnavailableError';
    case 'database':
    case 'internal':
      return 'InternalServerError';
  }
}
