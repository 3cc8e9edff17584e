import { Body, Controller, HttpCode, HttpStatus, Post, Req, Res } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiConflictResponse,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import { QuotaCost } from '@platform/auth';
import { BatchAnswerDto, BatchRequestDto, BatchResultDto, MAX_BATCH_OPERATIONS } from '@platform/contracts';
import { BatchRunner, batchQuotaCost, type BatchRoutes } from '@platform/database';
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
@ApiExtraModels(BatchResultDto)
@Controller('batch')
export class BatchController {
  constructor(private readonly runner: BatchRunner) {}

  @Post()
  @HttpCode(200)
  @Idempotent()
  @ApiBearerAuth()
  // The quota counts the batch as one request per operation, before any of them runs.
  @QuotaCost(batchQuotaCost)
  @ApiOperation({
    summary: `Run up to ${MAX_BATCH_OPERATIONS} writes in one request, atomically or not, or as a dry run`,
    description:
      "Each operation is a request to one of main-api's routes (`path` as in its URL, e.g. `/v1/clients`), " +
      'and goes through exactly that route: its validation, permissions, company and `if_match`. ' +
      'Operations run in order in one transaction. `atomic: true` (default): 200 when all succeeded, ' +
      'else 409 with every result and nothing saved. `atomic: false`: 207, each operation saved or not on ' +
      'its own. `dry_run: true`: 200 with every result, then everything rolled back (a preview). ' +
      'The quota counts one request per operation. `Idempotency-Key` covers the whole batch.',
  })
  @ApiOkResponse({ type: BatchAnswerDto, description: 'Atomic batch saved, or any dry run' })
  @ApiResponse({
    status: 207,
    type: BatchAnswerDto,
    description: 'Not atomic: each result says whether its operation succeeded',
  })
  @ApiConflictResponse({
    type: MainApiBatchFailedBodyDto,
    description: 'Atomic and at least one operation failed: nothing was saved',
  })
  async run(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Body() batch: BatchRequestDto,
  ): Promise<BatchAnswerDto> {
    const answer = await this.runner.run(request, batch, MAIN_API_BATCH_ROUTES);
    if (batch.atomic === false) {
      void reply.status(HttpStatus.MULTI_STATUS);
    }
    return answer;
  }
}
