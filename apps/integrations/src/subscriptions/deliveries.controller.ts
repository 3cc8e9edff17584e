import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOperation,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { Permission, RequirePermission } from '@platform/auth';
import { ApiPaginatedResponse, type ListAnswer } from '@platform/contracts';
import { IntegrationsErrorBodyDto } from '../errors/integrations-error-body.dto';
import { DeliveriesService } from './deliveries.service';
import { DeliveryDto } from './dto/delivery.dto';
import { DeliveriesQueryDto, DeliveryParamsDto, SubscriptionParamsDto } from './dto/subscription-params.dto';

@ApiTags('subscriptions')
@Controller('subscriptions/:id/deliveries')
export class DeliveriesController {
  constructor(private readonly deliveries: DeliveriesService) {}

  @Get()
  @RequirePermission(Permission.UseIntegrations)
  @ApiOperation({
    summary: "A subscription's delivery log, newest first: each event sent, its state and every attempt",
    description:
      'An attempt shows when it started, the status code the receiver answered or why there was none ' +
      '(timeout, refused connection, a target the SSRF rules refuse at delivery time), and how long it took.',
  })
  @ApiPaginatedResponse(DeliveryDto, { cursorPages: false })
  @ApiBadRequestResponse({ type: IntegrationsErrorBodyDto, description: 'ValidationError (ZC002)' })
  @ApiNotFoundResponse({ type: IntegrationsErrorBodyDto, description: 'SubscriptionNotFoundError (ZC001)' })
  list(
    @Param() params: SubscriptionParamsDto,
    @Query() query: DeliveriesQueryDto,
  ): Promise<ListAnswer<DeliveryDto>> {
    return this.deliveries.list(params.id, query);
  }

  @Post(':deliveryId/replay')
  @HttpCode(202)
  @RequirePermission(Permission.ManageIntegrationSecrets)
  @ApiOperation({
    summary: 'Send a delivery again (C-Level only): 202, queued for now with the same webhook-id',
    description:
      'Whatever its state (a delivered one is sent again: receivers deduplicate by webhook-id), with a ' +
      'fresh retry schedule. Errors: DeliveryInProgressError ZC001 (409: an attempt is running); ' +
      'SubscriptionDisabledError ZC002 (422).',
  })
  @ApiAcceptedResponse({ type: DeliveryDto })
  @ApiBadRequestResponse({ type: IntegrationsErrorBodyDto, description: 'ValidationError (ZC002)' })
  @ApiNotFoundResponse({
    type: IntegrationsErrorBodyDto,
    description: 'SubscriptionNotFoundError or DeliveryNotFoundError (ZC001)',
  })
  @ApiConflictResponse({ type: IntegrationsErrorBodyDto, description: 'DeliveryInProgressError (ZC001)' })
  @ApiUnprocessableEntityResponse({
    type: IntegrationsErrorBodyDto,
    description: 'SubscriptionDisabledError (ZC002)',
  })
  replay(@Param() params: DeliveryParamsDto): Promise<DeliveryDto> {
    return this.deliveries.replay(params.id, params.deliveryId);
  }
}
