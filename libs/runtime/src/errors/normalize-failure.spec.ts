import { BadRequestException, NotFoundException, ServiceUnavailableException } from '@nestjs/common';
import { IsInt, Min, ValidateNested, validateSync } from 'class-validator';
import { Type, plainToInstance } from 'class-transformer';
import { QueryFailedError } from 'typeorm';
import { describeForLog, normalizeFailure } from './normalize-failure';
import { MAX_FIELD_ERRORS, RequestValidationError } from './request-validation.error';
import { UpstreamUnavailableError } from './upstream-unavailable.error';

class Range {
  @IsInt()
  @Min(1)
  hours!: number;
}

class Lines {
  @ValidateNested({ each: true })
  @Type(() => Range)
  lines!: Range[];
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

  it('hides other database errors and anything unknown behind a generic 500', () => {
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

  const driverFailure = (fields: Record<string, unknown>): QueryFailedError =>
    new QueryFailedError(
      'UPDATE clients SET name = $1',
      ['secret value'],
      Object.assign(new Error('x'), fields),
    );

  it.each([
    [
      { code: '23502', column: 'name' },
      { kind: 'validation', status: 400, message: 'name must not be null' },
    ],
    [{ code: '22001' }, { kind: 'malformed_request', status: 400 }],
    [{ code: '22003' }, { kind: 'malformed_request', status: 400 }],
    [{ code: '22008' }, { kind: 'malformed_request', status: 400 }],
    [{ code: '54000' }, { kind: 'malformed_request', status: 400 }],
    [
      { code: '23503', detail: 'Key (client_id)=(7) is not present in table "clients".' },
      { kind: 'unprocessable', status: 422 },
    ],
    [
      { code: '23514', constraint: 'allocations_hours_positive' },
      { kind: 'unprocessable', status: 422 },
    ],
    [
      { code: '23505', constraint: 'some_key' },
      { kind: 'conflict', status: 409 },
    ],
    [{ code: '23P01' }, { kind: 'conflict', status: 409 }],
  ])('answers a data or constraint error %p as the client error it is, never a 500', (fields, expected) => {
    const failure = normalizeFailure(driverFailure(fields));

    expect(failure).toMatchObject(expected);
    expect(JSON.stringify(failure)).not.toMatch(/secret value|UPDATE|\(7\)/);
  });

  it('names the NOT NULL column as the field', () => {
    expect(normalizeFailure(driverFailure({ code: '23502', column: 'name' })).fieldErrors).toEqual([
      { field: 'name', validation: 'isNotNull', message: 'name must not be null' },
    ]);
  });

  it('lists at most MAX_FIELD_ERRORS field errors, then says more were left out', () => {
    const many = Array.from({ length: 5_000 }, (_, index) => ({
      field: `lines.${index}.hours`,
      validation: 'isInt',
      message: 'hours must be an integer',
    }));

    const error = new RequestValidationError(many);

    expect(error.fieldErrors).toHaveLength(MAX_FIELD_ERRORS + 1);
    expect(error.fieldErrors.at(-1)).toEqual(
      expect.objectContaining({ field: 'body', validation: 'tooManyErrors' }),
    );
    expect(error.message.length).toBeLessThan(300);
  });

  it('stops flattening class-validator errors once the cap is reached', () => {
    const errors = validateSync(
      plainToInstance(Lines, { lines: Array.from({ length: 2_000 }, () => ({ hours: 0 })) }),
    );

    expect(RequestValidationError.fromClassValidator(errors).fieldErrors).toHaveLength(MAX_FIELD_ERRORS + 1);
  });
});
