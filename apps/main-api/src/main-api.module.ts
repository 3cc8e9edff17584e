import { Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule, StaticKeySource, quotaSettingsOf } from '@platform/auth';
import { RetentionModule, TenancyModule } from '@platform/database';
import { HealthModule, loggingModule, MetricsModule } from '@platform/runtime';
import { MAIN_API_ENV, type MainApiEnv } from './config/main-api.env';
import { mainApiDataSourceOptions } from './database/main-api.data-source';
import { mainApiRetention } from './database/main-api.retention';
import { loadSigningKeys } from './oauth/keys/signing-keys';
import { DatabaseTokenStatus } from './oauth/revocation/database-token-status';
import { OAuthModule } from './oauth/oauth.module';

import { UsersModule } from './users/users.module';
import { LeavesModule } from './leaves/leaves.module';
import { ContractsModule } from './contracts/contracts.module';
import { FeesModule } from './fees/fees.module';
import { LabelsModule } from './labels/labels.module';
import { HolidayCalendarsModule } from './holiday-calendars/holiday-calendars.module';
import { RatecardsModule } from './ratecards/ratecards.module';
import { PositionsModule } from './positions/positions.module';
import { ProjectsModule } from './projects/projects.module';
import { TasksModule } from './tasks/tasks.module';
import { ProjectFinanceModule } from './project-finance/project-finance.module';
import { HoursModule } from './hours/hours.module';
import { TransactionsModule } from './transactions/transactions.module';
import { TeamsModule } from './teams/teams.module';
import { WorkspacesModule } from './workspaces/workspaces.module';
import { WorkingTimeModule } from './working-time/working-time.module';
import { BrandsModule } from './brands/brands.module';
import { ClientsModule } from './clients/clients.module';
import { IdempotencyModule } from './idempotency/idempotency.module';
import { ProductsModule } from './products/products.module';
import { PlannerLookupsModule } from './planner-lookups/planner-lookups.module';
import { ChangeFeedModule } from './change-feed/change-feed.module';
import { ReferenceDataModule } from './reference-data/reference-data.module';
import { BatchModule } from './batch/batch.module';
import { PlannerClientModule } from './planner-client/planner-client.module';
import { ForecastModule } from './forecast/forecast.module';
import { TimeReportModule } from './time-report/time-report.module';

@Module({})
export class MainApiModule {
  static forRoot(env: MainApiEnv): DynamicModule {
    const signingKeys = loadSigningKeys(env);
    return {
      module: MainApiModule,
      global: true,
      imports: [
        loggingModule('main-api', env),
        TypeOrmModule.forRoot({ ...mainApiDataSourceOptions(env), retryAttempts: 3, retryDelay: 1000 }),
        // main-api verifies its own tokens with its own key set, without calling its JWKS over HTTP.
        AuthModule.forRoot({
          issuer: env.JWT_ISSUER,
          audience: env.JWT_AUDIENCE,
          keys: { source: new StaticKeySource(signingKeys.publicKeys) },
          tokenStatus: { useClass: DatabaseTokenStatus },
          quota: quotaSettingsOf(env),
        }),
        MetricsModule,
        HealthModule.forRoot(),
        TenancyModule,
        RetentionModule.forRoot(mainApiRetention(env)),
        IdempotencyModule,
        OAuthModule.forRoot(env, signingKeys),
        UsersModule,
        ReferenceDataModule,
        BatchModule,
        ClientsModule,
        BrandsModule,
        ProductsModule,
        PositionsModule,
        TeamsModule,
        FeesModule,
        ContractsModule,
        RatecardsModule,
        LabelsModule,
        HolidayCalendarsModule,
        ProjectsModule,
        TasksModule,
        HoursModule,
        ProjectFinanceModule,
        TransactionsModule,
        WorkspacesModule,
        WorkingTimeModule,
        LeavesModule,
        ChangeFeedModule,
        PlannerLookupsModule,
        PlannerClientModule,
        ForecastModule,
        TimeReportModule,
      ],
      providers: [{ provide: MAIN_API_ENV, useValue: env }],
      exports: [MAIN_API_ENV],
    };
  }
}
