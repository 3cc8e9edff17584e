import { Module } from '@nestjs/common';
import { PlannerMainApi } from '../main-api/planner-main-api';
import { AllocationsController } from './allocations.controller';
import { AllocationsRepository } from './allocations.repository';
import { AllocationsService } from './allocations.service';

@Module({
  controllers: [AllocationsController],
  providers: [AllocationsService, AllocationsRepository, PlannerMainApi],
})
export class AllocationsModule {}
