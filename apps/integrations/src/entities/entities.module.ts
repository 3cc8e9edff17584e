import { Module } from '@nestjs/common';
import { MappingStore } from '../mappings/mapping.store';
import { ENTITY_CONTROLLERS } from './entities.controllers';
import { IntegrationWritesService } from './integration-writes.service';

@Module({
  controllers: ENTITY_CONTROLLERS,
  providers: [IntegrationWritesService, MappingStore],
  exports: [IntegrationWritesService, MappingStore],
})
export class EntitiesModule {}
