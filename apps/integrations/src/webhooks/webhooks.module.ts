import { Module } from '@nestjs/common';
import { CredentialsModule } from '../credentials/credentials.module';
import { EntitiesModule } from '../entities/entities.module';
import { WebhookReceiverService } from './webhook-receiver.service';
import { WebhookSourcesController } from './webhook-sources.controller';
import { WebhookSourcesService } from './webhook-sources.service';
import { WebhooksController } from './webhooks.controller';

@Module({
  imports: [EntitiesModule, CredentialsModule],
  controllers: [WebhookSourcesController, WebhooksController],
  providers: [WebhookSourcesService, WebhookReceiverService],
})
export class WebhooksModule {}
