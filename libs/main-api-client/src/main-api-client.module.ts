import { Module, type DynamicModule } from '@nestjs/common';
import { MainApiClient } from './main-api.client';
import { MAIN_API_CLIENT_OPTIONS, type MainApiClientOptions } from './main-api-client.options';

@Module({})
export class MainApiClientModule {
  static forRoot(options: MainApiClientOptions): DynamicModule {
    return {
      module: MainApiClientModule,
      global: true,
      providers: [{ provide: MAIN_API_CLIENT_OPTIONS, useValue: options }, MainApiClient],
      exports: [MainApiClient],
    };
  }
}
