import { Body, Controller, HttpCode, HttpStatus, Post, Req, Res } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiConflictResponse,
  ApiOkResponse,
  ApiOperation,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import { QuotaCost } from '@platform/auth';
import { BatchAnswerDto, BatchRequestDto, MAX_BATCH_OPERATIONS } from '@platform/contracts';
import { BatchRunner, batchQuotaCost, type BatchRoutes } from '@platform/database';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { renderPlannerError } from '../errors/planner-error.renderer';
import { PlannerBatchFailedBodyDto } from './batch-failed-body.dto';

/** What a planner batch may contain: the allocation routes of the interface and of `/v2`. */
export const PLANNER_BATCH_ROUTES: BatchRoutes = {
  batchPath: '/v2/batch',
  prefixes: ['/allocation/', '/v2/'],
  excluded: ['/v2/events'],
  renderError: renderPlannerError,
};

@ApiTags('batch')
@ApiBearerAuth()
@Controller('v2/batch')
export class BatchController {
  constructor(private readonly runner: BatchRunner) {}

  @Post()
  @HttpCode(200)
  // The quota counts the batch as one request per operation, before any of them runs.
  @QuotaCost(batchQuotaCost)
  @ApiOperation({
    summary: `Run up to ${MAX_BATCH_OPERATIONS} allocation writes in one request, atomically or not, or as a dry run`,
    description:
      "Each operation is a request to one of the planner's routes (`path` as in its URL, e.g. " +
      '`/allocation/saveAllocation`), and goes through exactly that route: its validation, permissions, ' +
      'company and `if_match`. Operations run in order in one transaction. `atomic: true` (default): ' +
      '200 when all succeeded, else 409 with every result and nothing saved. `atomic: false`: 207, each ' +
      'operation saved or not on its own. `dry_run: true`: 200 with every result, then everything rolled ' +
      'back (the preview of a drag and drop). The quota counts one request per operation.',
  })
  @ApiOkResponse({ type: BatchAnswerDto, description: 'Atomic batch saved, or any dry run' })
  @ApiResponse({
    status: 207,
    type: BatchAnswerDto,
    description: 'Not atomic: each result says whether its operation succeeded',
  })
  @ApiConflictResponse({
    type: PlannerBatchFailedBodyDto,
    description: 'Atomic and at least one operation failed: nothing was saved',
  })
  async run(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Body() batch: BatchRequestDto,
  ): Promise<BatchAnswerDto> {
    const answer = await this.runner.run(request, batch, PLANNER_BATCH_ROUTES);
    if (batch.atomic === false) {
      void reply.status(HttpStatus.MULTI_STATUS);
    }
    return answer;
  }
}
