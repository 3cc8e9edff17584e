import { Controller, HttpCode, Param, Post, Req, Res, UnauthorizedException } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { Public } from '@platform/auth';
import { IntegrationsErrorBodyDto } from '@platform/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { WebhookEventDto, WebhookOutcomeDto } from './dto/webhook-event.dto';
import { WebhookSourceParamsDto } from './dto/webhook-source.dto';
import { WebhookAuthenticationError, WebhookReceiverService } from './webhook-receiver.service';

const header = (request: FastifyRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

@ApiTags('webhooks')
@Controller('webhooks')
export class WebhooksController {
  constructor(private readonly receiver: WebhookReceiverService) {}

  // Public: the sender proves itself with the signature, not a bearer token.
  @Public()
  @Post(':source')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Receive a signed event from an external system, and apply it',
    description:
      'Signed with the secret of PUT /webhook-sources/{source}: X-Webhook-Signature: sha256=<hex ' +
      'HMAC-SHA256 over "<X-Webhook-Timestamp>.<raw body>">, the timestamp in Unix seconds and within ' +
      '5 minutes. X-Webhook-Id is the event id: a second delivery of an id answers the first outcome ' +
      '(with duplicate: true) unless main-api was down then, in which case it is applied again. A bad ' +
      'signature is 401 and nothing is stored.',
  })
  @ApiHeader({ name: 'X-Company-Id', required: true, description: 'Your company id' })
  @ApiHeader({ name: 'X-Webhook-Id', required: true, description: 'The event id (unique per source)' })
  @ApiHeader({ name: 'X-Webhook-Timestamp', required: true, description: 'Unix seconds' })
  @ApiHeader({ name: 'X-Webhook-Signature', required: true, description: 'sha256=<hex>' })
  @ApiBody({ type: WebhookEventDto })
  @ApiOkResponse({ type: WebhookOutcomeDto })
  @ApiUnauthorizedResponse({
    type: IntegrationsErrorBodyDto,
    description: 'Unauthorized: bad or stale signature',
  })
  @ApiBadRequestResponse({
    type: IntegrationsErrorBodyDto,
    description: 'ValidationError (ZC002): malformed event',
  })
  async receive(
    @Param() params: WebhookSourceParamsDto,
    @Req() request: FastifyRequest & { rawBody?: Buffer },
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<object> {
    try {
      const outcome = await this.receiver.receive({
        source: params.source,
        companyHeader: header(request, 'x-company-id'),
        eventId: header(request, 'x-webhook-id'),
        timestamp: header(request, 'x-webhook-timestamp'),
        signature: header(request, 'x-webhook-signature'),
        rawBody: request.rawBody,
        requestId: request.id,
      });
      void reply.status(outcome.status);
      return outcome.body;
    } catch (error) {
      if (error instanceof WebhookAuthenticationError) {
        throw new UnauthorizedException(error.message);
      }
      throw error;
    }
  }
}
