import { Module, type DynamicModule } from '@nestjs/common';
import { changeFeedRetention, RetentionModule, streamTicketRetention } from '@platform/database';
import { mainApiConsumerImports } from '@platform/main-api-client';
import { AllocationsModule } from './allocations/allocations.module';
import { BatchModule } from './batch/batch.module';
import { ChangeFeedModule } from './change-feed/change-feed.module';
import { AvailabilityModule } from './availability/availability.module';
import { LedgerModule } from './ledger/ledger.module';
import { PlaceholdersModule } from './placeholders/placeholders.module';
import { ReportsModule } from './reports/reports.module';
import { ScenarioPlanModule } from './scenarios/scenario-plan.module';
import { ScenariosModule } from './scenarios/scenarios.module';
import { StaffingModule } from './staffing/staffing.module';
import { PLANNER_ENV, type PlannerEnv } from './config/planner.env';
import { plannerDataSourceOptions } from './database/planner.data-source';

@Module({})
export class PlannerModule {
  static forRoot(env: PlannerEnv): DynamicModule {
    return {
      module: PlannerModule,
      global: true,
      imports: [
        ...mainApiConsumerImports('planner', env, plannerDataSourceOptions(env)),
        RetentionModule.forRoot({
          intervalSeconds: env.RETENTION_INTERVAL_SECONDS,
          policies: [changeFeedRetention(env.EVENTS_RETENTION_DAYS), streamTicketRetention],
        }),
        ScenarioPlanModule,
        AllocationsModule,
        LedgerModule,
        AvailabilityModule,
        PlaceholdersModule,
        StaffingModule,
        ReportsModule,
        ScenariosModule,
        BatchModule,
        ChangeFeedModule,
      ],
      providers: [{ provide: PLANNER_ENV, useValue: env }],
      exports: [PLANNER_ENV],
    };
  }
}
