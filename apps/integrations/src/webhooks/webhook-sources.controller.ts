import { Body, Controller, Delete, Get, Param, Put } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiServiceUnavailableResponse,
  ApiTooManyRequestsResponse,
  ApiTags,
} from '@nestjs/swagger';
import { FreshTokenStatus, Permission, RequirePermission } from '@platform/auth';
import { IntegrationsErrorBodyDto } from '../errors/integrations-error-body.dto';
import { CREDENTIAL_CHECK_THROTTLED, SECRET_MINTING_UNAVAILABLE } from '../errors/secret-minting-responses';
import {
  PutWebhookSourceDto,
  WebhookSourceDto,
  WebhookSourceParamsDto,
  WebhookSourceWithSecretDto,
} from './dto/webhook-source.dto';
import { WebhookSourcesService } from './webhook-sources.service';

@ApiTags('webhooks')
@ApiBearerAuth()
@RequirePermission(Permission.ManageIntegrationSecrets)
@Controller('webhook-sources')
export class WebhookSourcesController {
  constructor(private readonly sources: WebhookSourcesService) {}

  @Put(':source')
  // It answers a signing secret: a token revoked a moment ago must not get one (libs/auth).
  @FreshTokenStatus()
  @ApiOperation({
    summary: 'Let an external system send webhooks (C-Level only): answers its signing secret, once',
    description:
      'The API client given (role 1 or 2, your company) is the identity its events are applied with. ' +
      'Calling it again rotates the signing secret: the previous one stops working at once.',
  })
  @ApiOkResponse({ type: WebhookSourceWithSecretDto })
  @ApiTooManyRequestsResponse({ type: IntegrationsErrorBodyDto, description: CREDENTIAL_CHECK_THROTTLED })
  @ApiServiceUnavailableResponse({ type: IntegrationsErrorBodyDto, description: SECRET_MINTING_UNAVAILABLE })
  put(
    @Param() params: WebhookSourceParamsDto,
    @Body() body: PutWebhookSourceDto,
  ): Promise<WebhookSourceWithSecretDto> {
    return this.sources.put(params.source, body);
  }

  @Get()
  @ApiOperation({ summary: 'The external systems set up to send webhooks (secrets are never shown again)' })
  @ApiOkResponse({ type: [WebhookSourceDto] })
  list(): Promise<WebhookSourceDto[]> {
    return this.sources.list();
  }

  @Delete(':source')
  @ApiOperation({ summary: "Stop accepting an external system's webhooks" })
  @ApiOkResponse({ type: WebhookSourceDto })
  @ApiNotFoundResponse({ type: IntegrationsErrorBodyDto, description: 'WebhookSourceNotFoundError (ZC001)' })
  remove(@Param() params: WebhookSourceParamsDto): Promise<WebhookSourceDto> {
    return this.sources.remove(params.source);
  }
}
