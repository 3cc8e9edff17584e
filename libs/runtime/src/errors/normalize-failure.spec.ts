import { BadRequestException, NotFoundException, ServiceUnavailableException } from '@nestjs/common';
import { IsInt, Min, ValidateNested, validateSync } from 'class-validator';
import { Type, plainToInstance } from 'class-transformer';
import { QueryFailedError } from 'typeorm';
import { describeForLog, normalizeFailure } from './normalize-failure';
import { RequestValidationError } from './request-validation.error';
import { UpstreamUnavailableError } from './upstream-unavailable.error';

class Range {
  @IsInt()
  @Min(1)
  hours!: number;
}

class Body {
  @ValidateNested()
  @Type(() => Range)
  range!: Range;
}

describe('normalizeFailure', () => {
  it('turns validation errors into field errors with dotted paths', () => {
    const errors = validateSync(plainToInstance(Body, { range: { hours: 0 } }));

    const failure = normalizeFailure(RequestValidationError.fromClassValidator(errors));

    expect(failure).toMatchObject({ kind: 'validation', status: 400 });
    expect(failure.fieldErrors).toEqual([
      { field: 'range.hours', validation: 'min', message: 'range.hours: hours must not be less than 1' },
    ]);
  });

  it.each([
    [new NotFoundException('Cannot GET /x'), 'not_found', 404],
    [new BadRequestException('bad'), 'malformed_request', 400],
    [new ServiceUnavailableException(), 'upstream_unavailable', 503],
    [new UpstreamUnavailableError('main-api', 'main-api is unavailable'), 'upstream_unavailable', 503],
  ])('maps %p to %s', (exception, kind, status) => {
    expect(normalizeFailure(exception)).toMatchObject({ kind, status });
  });

  it('maps Fastify body errors to their status with our own message', () => {
    const error = Object.assign(new Error('Body is too large'), {
      code: 'FST_ERR_CTP_BODY_TOO_LARGE',
      statusCode: 413,
    });

    expect(normalizeFailure(error)).toEqual({
      kind: 'payload_too_large',
      status: 413,
      message: 'Request body is too large',
    });
  });

  it('hides database errors and anything unknown behind a generic 500', () => {
    const queryError = new QueryFailedError(
      'SELECT secret FROM t WHERE x = $1',
      ['value'],
      new Error('relation "t" does not exist'),
    );

    expect(normalizeFailure(queryError)).toEqual({
      kind: 'database',
      status: 500,
      message: 'The database could not complete the request',
    });
    expect(normalizeFailure(new TypeError('x is undefined'))).toEqual({
      kind: 'internal',
      status: 500,
      message: 'Unexpected error',
    });
  });

  it('keeps statement parameters out of the logs', () => {
    const driverError = Object.assign(new Error('duplicate key value'), {
      code: '23505',
      constraint: 'users_email_lower_key',
    });
    const queryError = new QueryFailedError(
      'INSERT INTO users ...',
      ['ada@example.com', 'scrypt$hash'],
      driverError,
    );

    const logged = JSON.stringify(describeForLog(queryError));

    expect(logged).toContain('users_email_lower_key');
    expect(logged).not.toContain('ada@example.com');
    expect(logged).not.toContain('INSERT');
  });
});
