import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiServiceUnavailableResponse,
  ApiTooManyRequestsResponse,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { FreshTokenStatus, Permission, RequirePermission } from '@platform/auth';
import { IntegrationsErrorBodyDto } from '../errors/integrations-error-body.dto';
import { CREDENTIAL_CHECK_THROTTLED, SECRET_MINTING_UNAVAILABLE } from '../errors/secret-minting-responses';
import { CreateSubscriptionDto } from './dto/create-subscription.dto';
import { SubscriptionParamsDto, SubscriptionsQueryDto } from './dto/subscription-params.dto';
import { SubscriptionDto, SubscriptionWithSecretDto } from './dto/subscription.dto';
import { SubscriptionTestResultDto } from './dto/outbound-webhook.dto';
import { SubscriptionsService } from './subscriptions.service';

const NOT_FOUND = ApiNotFoundResponse({
  type: IntegrationsErrorBodyDto,
  description:
    "SubscriptionNotFoundError (ZC001): no such subscription in your company (also another company's id)",
});

@ApiTags('subscriptions')
@Controller('subscriptions')
export class SubscriptionsController {
  constructor(private readonly subscriptions: SubscriptionsService) {}

  @Post()
  @RequirePermission(Permission.ManageIntegrationSecrets)
  // It answers a signing secret: a token revoked a moment ago must not get one (libs/auth).
  @FreshTokenStatus()
  @ApiOperation({
    summary:
      "Subscribe an external system to the platform's changes (C-Level only): answers its signing secret, once",
    description:
      'Every create, update and delete of the integrations entities in your company (main-api change feed) ' +
      'that matches entities and kinds is POSTed to url as {type: "<entity>.<kind>", timestamp, data: ' +
      '{entity, id, external_id, kind, changed_fields, cursor, occurred_at}}, signed per Standard Webhooks ' +
      '(see signing_secret). Changes made through this service by the same metadata.source are not sent ' +
      'back to it. A 2xx answer within DELIVERY_TIMEOUT_MS is a delivery; anything else is retried with ' +
      'the same webhook-id along DELIVERY_RETRY_SCHEDULE_MS (default over 30 hours), then the delivery ' +
      'is failed; after SUBSCRIPTION_DISABLE_AFTER_MS of failures only (default 5 days) the subscription ' +
      'is disabled. Events may arrive out of order: data.cursor orders them. Attempts are shared fairly: ' +
      'a company has at most DELIVERY_MAX_IN_FLIGHT_PER_COMPANY (default 4) attempts under way, a target ' +
      'host DELIVERY_MAX_IN_FLIGHT_PER_HOST (default 8); a receiver must accept the connection within ' +
      'DELIVERY_CONNECT_TIMEOUT_MS (default 3 s). A company has at most SUBSCRIPTION_MAX_PER_COMPANY ' +
      'subscriptions (default 50, disabled ones included). The API client (role 1 or 2, your company) ' +
      'is checked with main-api now and reads the feed later. Errors: ValidationError ZC002 (400; url ' +
      'refused by the SSRF rules, with the reason; API client not usable); DuplicateSubscriptionError ' +
      'ZC002 (422: this source already subscribes this url); SubscriptionLimitError ZC002 (422: your ' +
      'company has SUBSCRIPTION_MAX_PER_COMPANY subscriptions already: delete one first).',
  })
  @ApiCreatedResponse({ type: SubscriptionWithSecretDto })
  @ApiBadRequestResponse({ type: IntegrationsErrorBodyDto, description: 'ValidationError (ZC002)' })
  @ApiUnprocessableEntityResponse({
    type: IntegrationsErrorBodyDto,
    description:
      'DuplicateSubscriptionError (ZC002): this source already subscribes this url; ' +
      'SubscriptionLimitError (ZC002): your company has SUBSCRIPTION_MAX_PER_COMPANY subscriptions already',
  })
  @ApiTooManyRequestsResponse({ type: IntegrationsErrorBodyDto, description: CREDENTIAL_CHECK_THROTTLED })
  @ApiServiceUnavailableResponse({ type: IntegrationsErrorBodyDto, description: SECRET_MINTING_UNAVAILABLE })
  create(@Body() body: CreateSubscriptionDto): Promise<SubscriptionWithSecretDto> {
    return this.subscriptions.create(body);
  }

  @Get()
  @RequirePermission(Permission.UseIntegrations)
  @ApiOperation({ summary: "Your company's subscriptions, oldest first (secrets are never shown again)" })
  @ApiOkResponse({ type: [SubscriptionDto] })
  @ApiBadRequestResponse({
    type: IntegrationsErrorBodyDto,
    description: 'ValidationError (ZC002): unknown source',
  })
  list(@Query() query: SubscriptionsQueryDto): Promise<SubscriptionDto[]> {
    return this.subscriptions.list(query.source);
  }

  @Get(':id')
  @RequirePermission(Permission.UseIntegrations)
  @ApiOperation({ summary: 'One subscription, with its status (active or disabled, and why)' })
  @ApiOkResponse({ type: SubscriptionDto })
  @ApiBadRequestResponse({
    type: IntegrationsErrorBodyDto,
    description: 'ValidationError (ZC002): id is not a UUID',
  })
  @NOT_FOUND
  get(@Param() params: SubscriptionParamsDto): Promise<SubscriptionDto> {
    return this.subscriptions.get(params.id);
  }

  @Post(':id/test')
  @HttpCode(200)
  @RequirePermission(Permission.UseIntegrations)
  @ApiOperation({
    summary: 'Send the subscription a signed test event now, and see what its receiver answered',
    description:
      'The event (`subscription.test`, see the webhooks of this document) is signed with the ' +
      "subscription's secret and sent through the same checks as its deliveries; it is not queued, " +
      'retried or logged. 200 whatever the receiver did: `delivered` says whether it answered 2xx.',
  })
  @ApiOkResponse({ type: SubscriptionTestResultDto })
  @ApiBadRequestResponse({
    type: IntegrationsErrorBodyDto,
    description: 'ValidationError (ZC002): id is not a UUID',
  })
  @NOT_FOUND
  sendTest(@Param() params: SubscriptionParamsDto): Promise<SubscriptionTestResultDto> {
    return this.subscriptions.sendTest(params.id);
  }

  @Delete(':id')
  @RequirePermission(Permission.ManageIntegrationSecrets)
  @ApiOperation({
    summary: 'Unsubscribe (C-Level only): answers 200 with the subscription removed',
    description: 'Its delivery log goes with it; nothing more is sent, not even pending retries.',
  })
  @ApiOkResponse({ type: SubscriptionDto })
  @ApiBadRequestResponse({
    type: IntegrationsErrorBodyDto,
    description: 'ValidationError (ZC002): id is not a UUID',
  })
  @NOT_FOUND
  remove(@Param() params: SubscriptionParamsDto): Promise<SubscriptionDto> {
    return this.subscriptions.remove(params.id);
  }
}
