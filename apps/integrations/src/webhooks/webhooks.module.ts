import { Module } from '@nestjs/common';
import { EntitiesModule } from '../entities/entities.module';
import { MainApiTokens } from './main-api-tokens';
import { WebhookReceiverService } from './webhook-receiver.service';
import { WebhookSourcesController } from './webhook-sources.controller';
import { WebhookSourcesService } from './webhook-sources.service';
import { WebhooksController } from './webhooks.controller';

@Module({
  imports: [EntitiesModule],
  controllers: [WebhookSourcesController, WebhooksController],
  providers: [WebhookSourcesService, WebhookReceiverService, MainApiTokens],
})
export class WebhooksModule {}
