import { Body, Controller, Post, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { BatchRequestDto, type BatchAnswerDto } from '@platform/contracts';
import { BatchRoute, BatchRunner, type BatchRoutes } from '@platform/database';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { renderMainApiError } from '../errors/main-api-error.renderer';
import { Idempotent } from '../idempotency/idempotent.decorator';
import { MainApiBatchFailedBodyDto } from './batch-failed-body.dto';

/** What a main-api batch may contain: its data routes, not the token endpoints or the event feed. */
export const MAIN_API_BATCH_ROUTES: BatchRoutes = {
  batchPath: '/v1/batch',
  prefixes: ['/v1/'],
  excluded: ['/v1/oauth', '/v1/.well-known', '/v1/events'],
  renderError: renderMainApiError,
};

@ApiTags('batch')
@Controller('batch')
export class BatchController {
  constructor(private readonly runner: BatchRunner) {}

  @Post()
  @Idempotent()
  @BatchRoute({
    examplePath: '/v1/clients',
    failedBody: MainApiBatchFailedBodyDto,
    notes: '`Idempotency-Key` covers the whole batch.',
  })
  run(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Body() batch: BatchRequestDto,
  ): Promise<BatchAnswerDto> {
    return this.runner.answer(request, reply, batch, MAIN_API_BATCH_ROUTES);
  }
}
