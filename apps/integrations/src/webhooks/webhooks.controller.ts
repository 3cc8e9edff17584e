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
import type { FastifyReply, FastifyRequest } from 'fastify';
import { IntegrationsErrorBodyDto } from '../errors/integrations-error-body.dto';
import { WebhookEventDto, WebhookOutcomeDto } from './dto/webhook-event.dto';
import { WebhookSourceParamsDto } from './dto/webhook-source.dto';
import { WebhookAuthenticationError, WebhookReceiverService } from './webhook-receiver.service';

const header = (request: FastifyRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * `X-Webhook-<name>` as documented, or `webhook-<name>` as Standard Webhooks senders send it; both
 * with different values is refused rather than one of them silently chosen.
 */
const webhookHeader = (
  request: FastifyRequest,
  name: 'id' | 'timestamp' | 'signature',
): string | undefined => {
  const documented = header(request, `x-webhook-${name}`);
  const standard = header(request, `webhook-${name}`);
  if (documented !== undefined && standard !== undefined && documented !== standard) {
    throw new WebhookAuthenticationError(`X-Webhook-${name} and webhook-${name} differ: send one of them`);
  }
  return documented ?? standard;
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
      'Signed with the secret of PUT /webhook-sources/{source}, per Standard Webhooks: X-Webhook-Signature ' +
      '(or webhook-signature): v1,<base64 HMAC-SHA256 over "<X-Webhook-Id>.<X-Webhook-Timestamp>.<raw body>", ' +
      'keyed with the base64-decoded part after whsec_>; several space-separated signatures may be sent. ' +
      'The earlier form sha256=<hex HMAC-SHA256 over "<X-Webhook-Timestamp>.<raw body>", keyed with the ' +
      'secret as text> is still accepted, but it does not sign the event id: such a signature is accepted ' +
      'with the first event id it comes with only (another id is 401). The timestamp is in Unix seconds and ' +
      'within 5 minutes. X-Webhook-Id (or webhook-id) is the event id: a second delivery of an id answers ' +
      'the first outcome (with duplicate: true) unless main-api was down then, in which case it is applied ' +
      'again. A bad signature is 401 and nothing is stored.',
  })
  @ApiHeader({ name: 'X-Company-Id', required: true, description: 'Your company id' })
  @ApiHeader({
    name: 'X-Webhook-Id',
    required: true,
    description: 'The event id (unique per source); or webhook-id',
  })
  @ApiHeader({
    name: 'X-Webhook-Timestamp',
    required: true,
    description: 'Unix seconds; or webhook-timestamp',
  })
  @ApiHeader({
    name: 'X-Webhook-Signature',
    required: true,
    description: 'v1,<base64> (Standard Webhooks) or sha256=<hex> (earlier form); or webhook-signature',
  })
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
        eventId: webhookHeader(request, 'id'),
        timestamp: webhookHeader(request, 'timestamp'),
        signature: webhookHeader(request, 'signature'),
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
