import { ApiBadRequestResponse, ApiNotFoundResponse, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { type IntegrationSource } from '@platform/contracts';
import { RequestValidationError } from '@platform/runtime';
import { IntegrationsErrorBodyDto } from '../../errors/integrations-error-body.dto';
import type { ExternalDeleteDto, SourceQueryDto } from '../dto/integration-common.dto';

// What the entity routes share: where a DELETE's source comes from, and the errors that say more
// than the service-wide ones (the document builder adds those to every route).

/** `metadata.source` of a DELETE: in the body, or `?source=` (decisions §7). */
export function sourceOfDelete(
  body: ExternalDeleteDto | undefined,
  query: SourceQueryDto,
): IntegrationSource {
  const source = body?.metadata?.source ?? query.source;
  if (!source) {
    throw new RequestValidationError([
      {
        field: 'metadata.source',
        validation: 'isDefined',
        message: 'metadata.source is required: send {"metadata": {"source": ...}} or ?source=',
      },
    ]);
  }
  return source;
}

export const ExternalIdNotFound = (): MethodDecorator =>
  ApiNotFoundResponse({
    type: IntegrationsErrorBodyDto,
    description: 'ExternalIdNotFoundError (ZC001): no such external id for this source in your company',
  });

export const DuplicateExternalId = (): MethodDecorator =>
  ApiUnprocessableEntityResponse({
    type: IntegrationsErrorBodyDto,
    description:
      'DuplicateExternalIdError (ZC002): this external id of this source is already mapped, or being created',
  });

/** The fields of the body that hold other entities' external ids (decisions §7). */
export const UnknownReference = (...fields: string[]): MethodDecorator =>
  ApiBadRequestResponse({
    type: IntegrationsErrorBodyDto,
    description: `ValidationError (ZC002), also when ${fields.join(' or ')} names an external id this source has not mapped`,
  });
