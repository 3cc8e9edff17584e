import { createHash } from 'node:crypto';
import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Principal } from '@platform/auth';
import { RequestValidationError } from '@platform/runtime';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { catchError, from, mergeMap, of, switchMap, throwError, type Observable } from 'rxjs';
import { IdempotencyRepository } from './idempotency.repository';

const HEADER = 'idempotency-key';
const ACCEPTABLE_KEY = /^[\x21-\x7e]{1,255}$/;
// Nest's metadata key for @HttpCode().
const HTTP_CODE_METADATA = '__httpCode__';

/**
 * Every authenticated POST of main-api honours `Idempotency-Key`: the first answer is stored and
 * replayed for the same caller, key and request within 24 hours; the same key with another request
 * is a 422 (AC004); a failed first attempt leaves nothing behind, so it can be retried. A key is the
 * caller's (token subject) within its company: another caller's identical key is another key.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly store: IdempotencyRepository,
    private readonly reflector: Reflector,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest & { user?: Principal }>();
    const header = request.headers[HEADER];
    if (request.method !== 'POST' || header === undefined || !request.user) {
      return next.handle();
    }
    const key = Array.isArray(header) ? header[0] : header;
    if (!ACCEPTABLE_KEY.test(key)) {
      throw new RequestValidationError([
        {
          field: 'Idempotency-Key',
          validation: 'isIdempotencyKey',
          message: 'Idempotency-Key must be 1 to 255 visible ASCII characters',
        },
      ]);
    }
    const requestHash = createHash('sha256')
      .update(`${request.method} ${request.url}\n${JSON.stringify(request.body ?? null)}`)
      .digest('hex');
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    const statusCode =
      this.reflector.get<number | undefined>(HTTP_CODE_METADATA, context.getHandler()) ?? 201;

    const caller = { companyId: request.user.companyId, subject: request.user.subject };

    return from(this.store.start(caller, key, requestHash)).pipe(
      switchMap((start) => {
        if (start.kind === 'replay') {
          void reply.status(start.statusCode).header('idempotent-replayed', 'true');
          return of(start.body);
        }
        return next.handle().pipe(
          mergeMap(async (body: unknown) => {
            // What the handler answers with: its route's code, or one it chose (a batch's 207).
            await this.store.complete(caller, start.recordId, reply.statusCode || statusCode, body);
            return body;
          }),
          catchError((error: unknown) =>
            from(this.store.release(caller, start.recordId)).pipe(mergeMap(() => throwError(() => error))),
          ),
        );
      }),
    );
  }
}
