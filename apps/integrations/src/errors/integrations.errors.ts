import { MainApiRequestError } from '@platform/main-api-client';
import { IntegrationsErrorCode } from './integrations-error-code';
import { type IntegrationsErrorName } from './integrations-error-names';

/** A named integrations failure: `{error: name, message, code}` with its HTTP status. */
export class IntegrationsError extends Error {
  constructor(
    readonly errorName: IntegrationsErrorName,
    readonly code: IntegrationsErrorCode,
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = errorName;
  }
}

export class ExternalIdNotFoundError extends IntegrationsError {
  constructor(source: string, entity: string, externalId: string) {
    super(
      'ExternalIdNotFoundError',
      IntegrationsErrorCode.Generic,
      404,
      `No ${entity} with external id "${externalId}" from ${source}`,
    );
  }
}

/**
 * main-api refused or failed a call: its status and message passed through with ZC003 (docs/spec/decisions.md §4).
 * Anything else is rethrown as it is.
 */
export function asMainApiError(error: unknown, context?: string): unknown {
  if (error instanceof MainApiRequestError) {
    return new IntegrationsError(
      'MainApiError',
      IntegrationsErrorCode.ApiRequest,
      error.status,
      context ? `${context}: ${error.upstreamMessage}` : error.upstreamMessage,
    );
  }
  return error;
}
