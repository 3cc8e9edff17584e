import { Module } from '@nestjs/common';
import { CredentialsModule } from '../credentials/credentials.module';
import { EntitiesModule } from '../entities/entities.module';
import { WebhookReceiverService } from './webhook-receiver.service';
import { WebhookSourcesController } from './webhook-sources.controller';
import { WebhookSourcesRepository } from './webhook-sources.repository';
import { WebhookSourcesService } from './webhook-sources.service';
import { WebhooksController } from './webhooks.controller';
import { WebhooksRepository } from './webhooks.repository';

@Module({
  imports: [EntitiesModule, CredentialsModule],
  controllers: [WebhookSourcesController, WebhooksController],
  providers: [WebhookSourcesService, WebhookSourcesRepository, WebhookReceiverService, WebhooksRepository],
})
export class WebhooksModule {}
