import { IntegrationsErrorCode } from '@platform/contracts';

/** A named integrations failure: `{error: name, message, code}` with its HTTP status. */
export class IntegrationsError extends Error {
  constructor(
    readonly errorName: string,
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
