import { Body, Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiConflictResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { QuotaCost, Permission, RequirePermission } from '@platform/auth';
import { BatchAnswerDto } from '@platform/contracts';
import { BatchRunner } from '@platform/database';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MAIN_API_BATCH_ROUTES } from '../batch/batch.controller';
import { MainApiBatchFailedBodyDto } from '../batch/batch-failed-body.dto';
import { Idempotent } from '../idempotency/idempotent.decorator';
import { HoursBatchDto } from './dto/time-entry-detail.dto';

/** The path each entry of a batch goes to, as a batch operation. */
const UPSERT_PATH = '/v1/time-entries/upsert';

/** An import counts one request per entry, as `/v1/batch` counts its operations. */
const hoursBatchCost = (body: unknown): number => {
  const entries = (body as { entries?: unknown } | null)?.entries;
  return 1 + (Array.isArray(entries) ? Math.min(entries.length, 500) : 0);
};

/**
 * `POST /v1/hours/batch` (issue 40): a tracker's import. Each entry is an operation of the platform's
 * batch (`/v1/batch`) on `POST /v1/time-entries/upsert`, so it has that route's validation, roles,
 * company and lock, and the batch's transaction: all or nothing, or each on its own, or a dry run.
 */
@ApiTags('time entries')
@Controller('hours')
export class HoursBatchController {
  constructor(private readonly runner: BatchRunner) {}

  @Post('batch')
  @Idempotent()
  @HttpCode(200)
  @QuotaCost(hoursBatchCost)
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({
    summary: 'Import up to 500 time entries, each created or updated by its key (no duplicates on re-import)',
    description:
      `Each entry is \`POST ${UPSERT_PATH}\`: with source and external_id, the entry of that key; without, ` +
      "the one entry of the same user, project, task and date. Each result is that route's answer (201 " +
      'created, 200 found). atomic (default true): 200, or 409 with every result and nothing saved. atomic ' +
      'false: 207, each entry saved or not on its own. dry_run: every result, nothing saved. The quota ' +
      'counts one request per entry.',
  })
  @ApiOkResponse({ type: BatchAnswerDto, description: 'Atomic import saved, or any dry run' })
  @ApiResponse({
    status: 207,
    type: BatchAnswerDto,
    description: 'Not atomic: each result says whether it was saved',
  })
  @ApiConflictResponse({
    type: MainApiBatchFailedBodyDto,
    description: 'Atomic and at least one entry failed: nothing was saved',
  })
  run(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Body() body: HoursBatchDto,
  ): Promise<BatchAnswerDto> {
    const operations = body.entries.map((entry) => ({
      method: 'POST' as const,
      path: UPSERT_PATH,
      body: { ...entry },
    }));
    return this.runner.answer(
      request,
      reply,
      { operations, atomic: body.atomic, dry_run: body.dry_run },
      MAIN_API_BATCH_ROUTES,
    );
  }
}
