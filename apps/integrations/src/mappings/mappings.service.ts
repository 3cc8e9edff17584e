import { Injectable } from '@nestjs/common';
import type { IntegrationEntity, IntegrationSource } from '@platform/contracts';
import { TenantRepositoryFactory, type TenantRepository } from '@platform/database';
import { ExternalIdNotFoundError } from '../errors/integrations.errors';
import { ExternalMapping } from './external-mapping.entity';

@Injectable()
export class MappingsService {
  private readonly mappings: TenantRepository<ExternalMapping>;

  constructor(repositories: TenantRepositoryFactory) {
    this.mappings = repositories.for(ExternalMapping);
  }

  async lookUp(
    source: IntegrationSource,
    entity: IntegrationEntity,
    externalId: string,
  ): Promise<ExternalMapping> {
    const [mapping] = await this.mappings.find({ where: { source, entity, externalId }, take: 1 });
    if (!mapping) {
      throw new ExternalIdNotFoundError(source, entity, externalId);
    }
    return mapping;
  }
}
