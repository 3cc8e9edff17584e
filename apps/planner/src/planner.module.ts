import { Module, type DynamicModule } from '@nestjs/common';
import { mainApiConsumerImports } from '@platform/main-api-client';
import { AllocationsModule } from './allocations/allocations.module';
import { BatchModule } from './batch/batch.module';
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
        AllocationsModule,
        BatchModule,
      ],
      providers: [{ provide: PLANNER_ENV, useValue: env }],
      exports: [PLANNER_ENV],
    };
  }
}
