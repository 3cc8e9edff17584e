import { Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { runAsBatchItem } from '@platform/auth';
import {
  MAX_BATCH_OPERATIONS,
  type BatchAnswerDto,
  type BatchOperationDto,
  type BatchRequestDto,
  type BatchResultDto,
} from '@platform/contracts';
import {
  BatchFailedError,
  normalizeFailure,
  RequestValidationError,
  type ErrorRenderer,
  type FieldError,
} from '@platform/runtime';
import { HttpException, HttpStatus } from '@nestjs/common';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DataSource, type QueryRunner } from 'typeorm';
import { runInAmbientTransaction } from '../tenancy/ambient-transaction';

/** Which of a service's routes a batch may contain. */
export interface BatchRoutes {
  /** The batch route's own path, e.g. `/v1/batch`: a batch cannot contain a batch. */
  batchPath: string;
  /** Paths an operation may have, e.g. `/v1/`; anything else is a 400 naming the operation. */
  prefixes: readonly string[];
  /** Paths under the prefix that are not data (token endpoints, event streams). */
  excluded: readonly string[];
  /** The service's error body, for an operation that cannot run (424: what it refers to failed). */
  renderError: ErrorRenderer;
}

/** `{{<ref>.<field>[.<field>...]}}` in an operation's path or body strings. */
const PLACEHOLDER = /\{\{([A-Za-z0-9_-]{1,100})\.([A-Za-z0-9_.]+)\}\}/g;

/** An operation whose placeholders name an operation that failed, or a field its answer lacks. */
class FailedDependencyError extends HttpException {
  constructor(message: string) {
    super(message, HttpStatus.FAILED_DEPENDENCY);
  }
}

// The batch request's headers an operation does not inherit: its own body and conditions replace them.
const NOT_INHERITED = new Set([
  'content-length',
  'content-type',
  'transfer-encoding',
  'connection',
  'expect',
  'idempotency-key',
  'if-match',
  'if-none-match',
  'x-request-id',
]);

/**
 * Runs a batch's operations as requests to the service's own routes (Fastify's `inject`), one after
 * the other, so each goes through exactly the validation, authentication, permissions, tenancy and
 * conditions of its route: there is no second path to the data. All of them share one transaction
 * (`runInAmbientTransaction`), each in a savepoint of its own:
 * - atomic: committed only when every operation succeeded, else rolled back (409 with every result);
 * - not atomic: a failed operation's savepoint is rolled back, the others are committed (207);
 * - dry run: everything runs and answers, then the transaction is rolled back.
 * Every operation runs even after one failed, so a client sees all that is wrong in one answer.
 */
@Injectable()
export class BatchRunner {
  constructor(
    private readonly dataSource: DataSource,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  /** Runs the batch and sets the answer's status: 207 when not atomic, else the route's 200. */
  async answer(
    request: FastifyRequest,
    reply: FastifyReply,
    batch: BatchRequestDto,
    routes: BatchRoutes,
  ): Promise<BatchAnswerDto> {
    const answer = await this.run(request, batch, routes);
    if (batch.atomic === false) {
      void reply.status(HttpStatus.MULTI_STATUS);
    }
    return answer;
  }

  async run(request: FastifyRequest, batch: BatchRequestDto, routes: BatchRoutes): Promise<BatchAnswerDto> {
    refuseInvalidOperations(batch.operations, routes);
    const atomic = batch.atomic ?? true;
    const dryRun = batch.dry_run ?? false;
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    const headers = inheritedHeaders(request);

    const queryRunner = this.dataSource.createQueryRunner();
    await queryRunner.connect();
    try {
      await queryRunner.startTransaction();
      const results: BatchResultDto[] = [];
      const answered = new Map<string, BatchResultDto>();
      for (const [index, operation] of batch.operations.entries()) {
        let result: BatchResultDto;
        try {
          const resolved = resolvePlaceholders(operation, answered);
          result = await this.runOperation(fastify, queryRunner, headers, request.id, index, resolved);
        } catch (error) {
          if (!(error instanceof FailedDependencyError)) {
            throw error;
          }
          const { status, body } = routes.renderError(normalizeFailure(error), error);
          result = { ...refOf(operation), index, status, headers: {}, body };
        }
        results.push(result);
        if (operation.ref !== undefined) {
          answered.set(operation.ref, result);
        }
      }
      const failed = results.filter((result) => result.status >= 400).length;
      const commit = !dryRun && !(atomic && failed > 0);
      if (commit) {
        await queryRunner.commitTransaction();
      } else {
        await queryRunner.rollbackTransaction();
      }
      if (atomic && failed > 0 && !dryRun) {
        throw new BatchFailedError(results, failed);
      }
      return { committed: commit, dry_run: dryRun, results };
    } catch (error) {
      if (queryRunner.isTransactionActive) {
        await queryRunner.rollbackTransaction();
      }
      throw error;
    } finally {
      await queryRunner.release();
    }
  }

  private async runOperation(
    fastify: FastifyInstance,
    queryRunner: QueryRunner,
    headers: Record<string, string>,
    batchRequestId: string,
    index: number,
    operation: BatchOperationDto,
  ): Promise<BatchResultDto> {
    await queryRunner.startTransaction(); // a savepoint
    // `inject` answers a thenable that starts the request when awaited: awaited inside both scopes,
    // so the request runs in them (awaited outside, it would start in the caller's context).
    const response = await runInAmbientTransaction(queryRunner.manager, () =>
      runAsBatchItem(
        { batchRequestId, index },
        async () =>
          await fastify.inject({
            method: operation.method,
            url: operation.path,
            headers: {
              ...headers,
              'x-request-id': `${batchRequestId}.${index}`.slice(0, 128),
              ...(operation.body !== undefined ? { 'content-type': 'application/json' } : {}),
              ...(operation.if_match !== undefined ? { 'if-match': operation.if_match } : {}),
            },
            ...(operation.body !== undefined ? { payload: JSON.stringify(operation.body) } : {}),
          }),
      ),
    );
    if (response.statusCode < 400) {
      await queryRunner.commitTransaction(); // releases the savepoint
    } else {
      await queryRunner.rollbackTransaction(); // to the savepoint: the failure leaves nothing behind
    }
    const etag = response.headers.etag;
    const location = response.headers.location;
    return {
      ...refOf(operation),
      index,
      status: response.statusCode,
      headers: {
        ...(typeof etag === 'string' ? { etag } : {}),
        ...(typeof location === 'string' ? { location } : {}),
      },
      body: response.body.length > 0 && isJson(response.headers['content-type']) ? response.json() : null,
    };
  }
}

/** What a batch request counts for in its company's quota (QuotaCost): itself and each operation. */
export function batchQuotaCost(body: unknown): number {
  const operations = (body as { operations?: unknown } | null)?.operations;
  return 1 + (Array.isArray(operations) ? Math.min(operations.length, MAX_BATCH_OPERATIONS) : 0);
}

function isJson(contentType: unknown): boolean {
  return typeof contentType === 'string' && /^application\/(.+\+)?json\b/i.test(contentType);
}

function inheritedHeaders(request: FastifyRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (!NOT_INHERITED.has(name) && typeof value === 'string') {
      headers[name] = value;
    }
  }
  return headers;
}

function refOf(operation: BatchOperationDto): { ref?: string } {
  return operation.ref !== undefined ? { ref: operation.ref } : {};
}

/** The operation with its placeholders replaced by what the operations they name answered. */
function resolvePlaceholders(
  operation: BatchOperationDto,
  answered: ReadonlyMap<string, BatchResultDto>,
): BatchOperationDto {
  const valueOf = (ref: string, field: string): unknown => {
    const result = answered.get(ref);
    if (!result || result.status >= 400) {
      throw new FailedDependencyError(`This operation uses the answer of "${ref}", which failed`);
    }
    let value: unknown = result.body;
    for (const key of field.split('.')) {
      value =
        typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
    }
    if (value === undefined || value === null || typeof value === 'object') {
      throw new FailedDependencyError(`The answer of "${ref}" has no value at ${field}`);
    }
    return value;
  };
  const inString = (text: string): unknown => {
    const whole = new RegExp(`^${PLACEHOLDER.source}$`).exec(text);
    if (whole) {
      return valueOf(whole[1], whole[2]);
    }
    return text.replace(PLACEHOLDER, (_match, ref: string, field: string) => String(valueOf(ref, field)));
  };
  const inValue = (value: unknown): unknown => {
    if (typeof value === 'string') {
      return inString(value);
    }
    if (Array.isArray(value)) {
      return value.map(inValue);
    }
    if (typeof value === 'object' && value !== null) {
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, inValue(item)]));
    }
    return value;
  };
  return {
    ...operation,
    path: operation.path.replace(PLACEHOLDER, (_match, ref: string, field: string) =>
      encodeURIComponent(String(valueOf(ref, field))),
    ),
    ...(operation.body !== undefined ? { body: inValue(operation.body) as Record<string, unknown> } : {}),
  };
}

/**
 * Every operation must name one of the service's data routes, refs must be unique, and a placeholder
 * must name an earlier operation's ref; all offenders in one 400, before anything runs.
 */
function refuseInvalidOperations(operations: readonly BatchOperationDto[], routes: BatchRoutes): void {
  const errors: FieldError[] = [];
  const earlier = new Set<string>();
  for (const [index, operation] of operations.entries()) {
    const named = [operation.path, JSON.stringify(operation.body ?? null)].flatMap((text) =>
      [...text.matchAll(PLACEHOLDER)].map((match) => match[1]),
    );
    for (const ref of named.filter((name) => !earlier.has(name))) {
      errors.push({
        field: `operations[${index}]`,
        validation: 'isEarlierRef',
        message: `operations[${index}] uses {{${ref}...}}, but no earlier operation has ref ${ref}`,
      });
    }
    if (operation.ref !== undefined) {
      if (earlier.has(operation.ref)) {
        errors.push({
          field: `operations[${index}].ref`,
          validation: 'isUniqueRef',
          message: `operations[${index}].ref ${operation.ref} is already the ref of an earlier operation`,
        });
      }
      earlier.add(operation.ref);
    }
    const path = operation.path.split('?')[0].replace(/\/+$/, '');
    const outside =
      !routes.prefixes.some((prefix) => operation.path.startsWith(prefix)) ||
      path === routes.batchPath ||
      routes.excluded.some((excluded) => path === excluded || path.startsWith(`${excluded}/`)) ||
      path.split('/').some((segment) => segment === '..' || segment === '.');
    if (outside) {
      errors.push({
        field: `operations[${index}].path`,
        validation: 'isBatchablePath',
        message: `operations[${index}].path must be one of this service's data routes under ${routes.prefixes.join(' or ')} (not ${routes.batchPath}, ${routes.excluded.join(', ')})`,
      });
    }
  }
  if (errors.length > 0) {
    throw new RequestValidationError(errors);
  }
}
