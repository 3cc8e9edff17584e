import { applyDecorators, HttpCode, type Type } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiConflictResponse,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiResponse,
} from '@nestjs/swagger';
import { QuotaCost } from '@platform/auth';
import { BatchAnswerDto, BatchResultDto, MAX_BATCH_OPERATIONS } from '@platform/contracts';
import { batchQuotaCost } from './batch-runner';

/**
 * A service's batch route (`POST /v1/batch`, `POST /v2/batch`): 200, its quota counted per
 * operation before any runs, and its answers documented the same on every service; `failedBody`
 * is the service's error body with `results` (the 409 of an atomic batch that failed).
 */
export function BatchRoute(options: {
  examplePath: string;
  failedBody: Type;
  notes?: string;
}): MethodDecorator {
  return applyDecorators(
    HttpCode(200),
    ApiBearerAuth(),
    QuotaCost(batchQuotaCost),
    ApiExtraModels(BatchResultDto),
    ApiOperation({
      summary: `Run up to ${MAX_BATCH_OPERATIONS} writes in one request, atomically or not, or as a dry run`,
      description:
        "Each operation is a request to one of this service's routes (`path` as in its URL, e.g. " +
        `\`${options.examplePath}\`), and goes through exactly that route: its validation, permissions, ` +
        'company and `if_match`. Operations run in order in one transaction. `atomic: true` (default): ' +
        '200 when all succeeded, else 409 with every result and nothing saved. `atomic: false`: 207, each ' +
        'operation saved or not on its own. `dry_run: true`: 200 with every result, then everything rolled ' +
        'back (a preview). The quota counts one request per operation.' +
        (options.notes ? ` ${options.notes}` : ''),
    }),
    ApiOkResponse({ type: BatchAnswerDto, description: 'Atomic batch saved, or any dry run' }),
    ApiResponse({
      status: 207,
      type: BatchAnswerDto,
      description: 'Not atomic: each result says whether its operation succeeded',
    }),
    ApiConflictResponse({
      type: options.failedBody,
      description: 'Atomic and at least one operation failed: nothing was saved',
    }),
  );
}
