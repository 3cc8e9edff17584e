import { Module, type DynamicModule } from '@nestjs/common';
import { RetentionModule } from '@platform/database';
import { mainApiConsumerImports } from '@platform/main-api-client';
import { INTEGRATIONS_ENV, type IntegrationsEnv } from './config/integrations.env';
import { integrationsDataSourceOptions } from './database/integrations.data-source';
import { integrationsRetention } from './database/integrations.retention';
import { EntitiesModule } from './entities/entities.module';
import { MappingsModule } from './mappings/mappings.module';
import { SubscriptionsModule } from './subscriptions/subscriptions.module';
import { WebhooksModule } from './webhooks/webhooks.module';

@Module({})
export class IntegrationsModule {
  static forRoot(env: IntegrationsEnv): DynamicModule {
    return {
      module: IntegrationsModule,
      global: true,
      imports: [
        ...mainApiConsumerImports('integrations', env, integrationsDataSourceOptions(env)),
        RetentionModule.forRoot(integrationsRetention(env)),
        EntitiesModule,
        MappingsModule,
        WebhooksModule,
        SubscriptionsModule,
      ],
      providers: [{ provide: INTEGRATIONS_ENV, useValue: env }],
      exports: [INTEGRATIONS_ENV],
    };
  }
}
