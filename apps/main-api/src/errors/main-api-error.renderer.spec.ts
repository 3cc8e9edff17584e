import { NotFoundException } from '@nestjs/common';
import { normalizeFailure, RequestValidationError } from '@platform/runtime';
import { QueryFailedError } from 'typeorm';
import { MainApiErrorCode } from './main-api-error-code';
import { CursorExpiredError } from '../change-feed/change-feed.errors';
import { renderMainApiError } from './main-api-error.renderer';
import {
  AccessDeniedError,
  BusinessRuleError,
  ConflictError,
  MainApiError,
  ResourceNotFoundError,
} from './main-api.errors';

const render = (exception: unknown) => renderMainApiError(normalizeFailure(exception), exception);

const constraintFailure = (code: string, constraint: string): QueryFailedError =>
  new QueryFailedError(
    'INSERT INTO users ...',
    ['ada@example.com'],
    Object.assign(new Error('x'), { code, constraint }),
  );

describe('renderMainApiError', () => {
  it.each([
    [new ResourceNotFoundError('Team 7'), 404, 'AC003', 'Team 7 not found'],
    [new BusinessRuleError('The rule'), 422, 'AC004', 'The rule'],
    [new ConflictError('In flight'), 409, 'AC004', 'In flight'],
    [new AccessDeniedError('Not yours'), 403, 'AC006', 'Not yours'],
    [new CursorExpiredError('42'), 410, 'AC003', expect.stringContaining('CursorExpiredError')],
  ])('renders the named error %p with its own status, code and message', (error, status, code, message) => {
    expect(render(error)).toEqual({
      status,
      body: { status, name: 'PlatformCustomError', code, message },
    });
  });

  it('renders a named error with field errors as the `errors` array', () => {
    // As tasks' InvalidAttachmentSourceError does (its 400 AC001 is asserted end to end in tasks.e2e-spec).
    const fieldError = {
      field: 'source_type',
      validation: 'isIn',
      message: 'source_type must be one of a, b',
    };
    const error = new MainApiError(
      400,
      MainApiErrorCode.InvalidAttachmentSource,
      'Request validation failed: source_type must be one of a, b',
      [fieldError],
    );

    expect(render(error)).toEqual({
      status: 400,
      body: {
        status: 400,
        name: 'PlatformCustomError',
        code: 'AC001',
        message: 'Request validation failed: source_type must be one of a, b',
        errors: [fieldError],
      },
    });
  });

  it('answers a named constraint as its business rule, without SQL or values', () => {
    const rendered = render(constraintFailure('23505', 'users_email_lower_key'));

    expect(rendered).toEqual({
      status: 422,
      body: {
        status: 422,
        name: 'PlatformCustomError',
        code: 'AC004',
        message: 'A user with this e-mail already exists',
      },
    });
    expect(JSON.stringify(rendered)).not.toMatch(/INSERT|ada@example\.com/);
  });

  it.each([
    [
      new RequestValidationError([{ field: 'name', validation: 'isString', message: 'bad name' }]),
      400,
      'AC002',
    ],
    [new NotFoundException('Cannot GET /nowhere'), 404, 'AC003'],
    [constraintFailure('23505', 'some_unnamed_key'), 409, 'AC004'],
    [new TypeError('x is undefined'), 500, 'AC500'],
  ])('keeps the generic mapping for %p', (exception, status, code) => {
    const rendered = render(exception);

    expect(rendered.status).toBe(status);
    expect(rendered.body).toMatchObject({ status, name: 'PlatformCustomError', code });
  });

  it('lists the field errors of a generic validation failure', () => {
    const fieldError = { field: 'name', validation: 'isString', message: 'bad name' };

    expect(render(new RequestValidationError([fieldError])).body).toMatchObject({ errors: [fieldError] });
  });
});
