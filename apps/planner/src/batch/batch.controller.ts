import { Body, Controller, Post, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { BatchRequestDto, type BatchAnswerDto } from '@platform/contracts';
import { BatchRoute, BatchRunner, type BatchRoutes } from '@platform/database';
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
@Controller('v2/batch')
export class BatchController {
  constructor(private readonly runner: BatchRunner) {}

  @Post()
  @BatchRoute({ examplePath: '/allocation/saveAllocation', failedBody: PlannerBatchFailedBodyDto })
  run(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Body() batch: BatchRequestDto,
  ): Promise<BatchAnswerDto> {
    return this.runner.answer(request, reply, batch, PLANNER_BATCH_ROUTES);
  }
}
