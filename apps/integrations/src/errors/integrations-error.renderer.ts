import type { FailureKind, NormalizedFailure, RenderedError } from '@platform/runtime';
import { IntegrationsErrorCode } from './integrations-error-code';
import { type IntegrationsErrorName } from './integrations-error-names';
import { IntegrationsError } from './integrations.errors';

/** Every integrations failure as `{error, message, code}` (docs/spec/interfaces.md, docs/spec/decisions.md §4). */
export function renderIntegrationsError(failure: NormalizedFailure, exception: unknown): RenderedError {
  if (exception instanceof IntegrationsError) {
    return {
      status: exception.status,
      body: { error: exception.errorName, message: exception.message, code: exception.code },
    };
  }
  const [error, code] = nameAndCodeFor(failure.kind);
  const fieldMessages = failure.fieldErrors?.map((fieldError) => fieldError.message);
  return {
    status: failure.status,
    body: {
      error,
      message: fieldMessages && fieldMessages.length > 0 ? fieldMessages.join('; ') : failure.message,
      code,
    },
  };
}

function nameAndCodeFor(kind: FailureKind): [IntegrationsErrorName, IntegrationsErrorCode] {
  switch (kind) {
    case 'validation':
    case 'malformed_request':
    case 'unsupported_media_type':
    case 'payload_too_large':
      return ['ValidationError', IntegrationsErrorCode.Validation];
    case 'unauthenticated':
      return ['Unauthorized', IntegrationsErrorCode.Generic];
    case 'forbidden':
      return ['Forbidden', IntegrationsErrorCode.Generic];
    case 'not_found':
    case 'method_not_allowed':
      return ['NotFoundError', IntegrationsErrorCode.Generic];
    case 'conflict':
      return ['ConflictError', IntegrationsErrorCode.Generic];
    case 'unprocessable':
      return ['UnprocessableEntityError', IntegrationsErrorCode.Validation];
    case 'rate_limited':
      return ['TooManyRequestsError', IntegrationsErrorCode.Generic];
    case 'precondition_failed':
      return ['PreconditionFailedError', IntegrationsErrorCode.Generic];
    case 'precondition_required':
      return ['PreconditionRequiredError', IntegrationsErrorCode.Generic];
    case 'failed_dependency':
      return ['FailedDependencyError', IntegrationsErrorCode.Generic];
    case 'upstream_unavailable':
      return ['MainApiUnavailableError', IntegrationsErrorCode.ApiRequest];
    case 'shutting_down':
      return ['ServiceUnavailableError', IntegrationsErrorCode.Generic];
    case 'database':
      return ['DatabaseError', IntegrationsErrorCode.Query];
    case 'internal':
      return ['InternalServerError', IntegrationsErrorCode.Generic];
  }
}
