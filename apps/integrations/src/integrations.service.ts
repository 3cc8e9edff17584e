import type { ServiceDefinition } from '@platform/runtime';
import { IntegrationsErrorBodyDto } from './errors/integrations-error-body.dto';
import type { IntegrationsEnv } from './config/integrations.env';
import { renderIntegrationsError } from './errors/integrations-error.renderer';
import { IntegrationsModule } from './integrations.module';
import {
  OUTBOUND_WEBHOOKS,
  OutboundWebhookDto,
  SubscriptionTestWebhookDto,
} from './subscriptions/dto/outbound-webhook.dto';

export const integrationsService: ServiceDefinition<IntegrationsEnv> = {
  name: 'integrations',
  title: 'Integrations',
  description:
    "Maps external systems' ids (JIRA, HubSpot, QuickBooks...) to platform entities, so they create, update " +
    "and delete by their own ids; receives their webhooks, and sends them signed webhooks of the platform's " +
    'changes (subscriptions).',
  version: '1.0',
  globalPrefix: 'v2/integrations',
  rawBody: true,
  rootModule: (env) => IntegrationsModule.forRoot(env),
  renderError: renderIntegrationsError,
  errorBody: IntegrationsErrorBodyDto,
  openApi: { extraModels: [OutboundWebhookDto, SubscriptionTestWebhookDto], webhooks: OUTBOUND_WEBHOOKS },
};
