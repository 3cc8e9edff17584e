import { Module } from '@nestjs/common';
import { MappingsRepository } from '../mappings/mappings.repository';
import { BrandsController } from './controllers/brands.controller';
import { ClientsController } from './controllers/clients.controller';
import { ContractsController } from './controllers/contracts.controller';
import { PositionCategoriesController } from './controllers/position-categories.controller';
import { PositionsController } from './controllers/positions.controller';
import { ProjectsController } from './controllers/projects.controller';
import { TeamsController } from './controllers/teams.controller';
import { UserLeavesController } from './controllers/user-leaves.controller';
import { UsersController } from './controllers/users.controller';
import { WorkingTimeController } from './controllers/working-time.controller';
import { WorkspacesController } from './controllers/workspaces.controller';
import { IntegrationWritesService } from './integration-writes.service';

/** One controller per entity interfaces.md lists for the integrations service (decisions §7). */
export const ENTITY_CONTROLLERS = [
  BrandsController,
  ClientsController,
  ContractsController,
  PositionsController,
  PositionCategoriesController,
  ProjectsController,
  TeamsController,
  UsersController,
  UserLeavesController,
  WorkspacesController,
  WorkingTimeController,
];

@Module({
  controllers: ENTITY_CONTROLLERS,
  providers: [IntegrationWritesService, MappingsRepository],
  exports: [IntegrationWritesService, MappingsRepository],
})
export class EntitiesModule {}
