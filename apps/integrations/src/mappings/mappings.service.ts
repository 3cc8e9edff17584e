import { Injectable } from '@nestjs/common';
import type { IntegrationEntity, IntegrationSource } from '@platform/contracts';
import { ExternalIdNotFoundError } from '../errors/integrations.errors';
import type { ExternalMapping } from './external-mapping.entity';
import { MappingsRepository } from './mappings.repository';

@Injectable()
export class MappingsService {
  constructor(private readonly mappings: MappingsRepository) {}

  async lookUp(
    source: IntegrationSource,
    entity: IntegrationEntity,
    externalId: string,
  ): Promise<ExternalMapping> {
    const mapping = await this.mappings.find({ source, entity, externalId });
    if (!mapping) {
      throw new ExternalIdNotFoundError(source, entity, externalId);
    }
    return mapping;
  }
}
