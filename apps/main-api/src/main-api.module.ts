import { Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { HealthModule, loggingModule, MetricsModule } from '@platform/runtime';
import { MAIN_API_ENV, type MainApiEnv } from './config/main-api.env';
import { mainApiDataSourceOptions } from './database/main-api.data-source';

@Module({})
export class MainApiModule {
  static forRoot(env: MainApiEnv): DynamicModule {
    return {
      module: MainApiModule,
      global: true,
      imports: [
        loggingModule('main-api', env),
        TypeOrmModule.forRoot({ ...mainApiDataSourceOptions(env), retryAttempts: 3, retryDelay: 1000 }),
        MetricsModule,
        HealthModule.forRoot(),
      ],
      providers: [{ provide: MAIN_API_ENV, useValue: env }],
      exports: [MAIN_API_ENV],
    };
  }
}
