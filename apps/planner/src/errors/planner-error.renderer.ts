import type { FailureKind, NormalizedFailure, RenderedError } from '@platform/runtime';
import { AllocationErrorName } from './allocation-error-name';
import { type PlannerErrorName } from './planner-error-names';
import { AllocationError } from '../allocations/allocation.errors';
import { TooManyStreamsError } from '../change-feed/stream/event-streams.errors';

/** Every planner failure as `{error, message}` (docs/spec/interfaces.md "Allocation error body", docs/spec/decisions.md §4). */
export function renderPlannerError(failure: NormalizedFailure, exception: unknown): RenderedError {
  if (exception instanceof AllocationError) {
    return {
      status: exception.status,
      body: { error: exception.errorName, message: exception.message, ...exception.details },
    };
  }
  // A 503 the filter answers with Retry-After (its retryAfterSeconds), under the planner's own name.
  if (exception instanceof TooManyStreamsError) {
    return {
      status: failure.status,
      body: { error: 'TooManyStreamsError' satisfies PlannerErrorName, message: failure.message },
    };
  }
  // One message per field, the most basic one (class-validator reports every failed rule: "must be
  // a number" is what a person needs to read, not also "must be more than 0").
  const messageByField = new Map<string, string>();
  for (const fieldError of failure.fieldErrors ?? []) {
    if (!messageByField.has(fieldError.field)) {
      messageByField.set(fieldError.field, fieldError.message);
    }
  }
  const fieldMessages = [...messageByField.values()];
  return {
    status: failure.status,
    body: {
      error: errorNameFor(failure.kind),
      message: fieldMessages.length > 0 ? fieldMessages.join('; ') : failure.message,
    },
  };
}

function errorNameFor(kind: FailureKind): PlannerErrorName {
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
    case 'precondition_failed':
      return 'PreconditionFailedError';
    case 'precondition_required':
      return 'PreconditionRequiredError';
    case 'failed_dependency':
      return 'FailedDependencyError';
    case 'upstream_unavailable':
      return 'MainApiUnavailableError';
    case 'shutting_down':
      return 'ServiceUnavailableError';
    case 'database':
    case 'internal':
      return 'InternalServerError';
  }
}
