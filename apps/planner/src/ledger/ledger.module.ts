import { Module } from '@nestjs/common';
import { PlannerMainApi } from '../main-api/planner-main-api';
import { AllocationsV2Controller } from './allocations-v2.controller';
import { AllocationsV2Service } from './allocations-v2.service';
import { LedgerRepository } from './ledger.repository';
import { PlanningSettingsController } from './planning-settings.controller';
import { PlanningSettingsService } from './planning-settings.service';

/** The v2 allocations ledger (issue 37). */
@Module({
  controllers: [AllocationsV2Controller, PlanningSettingsController],
  providers: [AllocationsV2Service, PlanningSettingsService, LedgerRepository, PlannerMainApi],
  exports: [AllocationsV2Service, LedgerRepository, PlannerMainApi],
})
export class LedgerModule {}
