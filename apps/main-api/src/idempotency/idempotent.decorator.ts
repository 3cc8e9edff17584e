import { applyDecorators, UseInterceptors } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { IdempotencyInterceptor } from './idempotency.interceptor';

/**
 * Marks an authenticated POST as honouring `Idempotency-Key` (every one of main-api's does; a spec
 * checks none is missed). Bound per route rather than as a global interceptor, so reads do not pay
 * for an rxjs pipeline on every request (bench/README.md, round 3).
 */
export function Idempotent(): MethodDecorator {
  return applyDecorators(
    UseInterceptors(IdempotencyInterceptor),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description:
        'Up to 255 visible ASCII characters. The first answer is stored for 24 hours and replayed ' +
        '(with `Idempotent-Replayed: true`) for the same key and request from the same caller (the ' +
        "token's user or API client); the same key with another request is a 422. Keys of other " +
        'callers never meet.',
    }),
  );
}
