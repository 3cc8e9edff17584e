import { HttpException, HttpStatus } from '@nestjs/common';
import { QueryFailedError, TypeORMError } from 'typeorm';
import { databaseFailure } from './database-failure';
import type { FailureKind, NormalizedFailure } from './failure';
import { PreconditionFailedError, PreconditionRequiredError } from '../http/conditional-requests';
import { RequestValidationError } from './request-validation.error';
import { ShuttingDownError, UpstreamUnavailableError } from './upstream-unavailable.error';

const KIND_BY_STATUS: Partial<Record<number, FailureKind>> = {
  [HttpStatus.BAD_REQUEST]: 'malformed_request',
  [HttpStatus.UNAUTHORIZED]: 'unauthenticated',
  [HttpStatus.FORBIDDEN]: 'forbidden',
  [HttpStatus.NOT_FOUND]: 'not_found',
  [HttpStatus.METHOD_NOT_ALLOWED]: 'method_not_allowed',
  [HttpStatus.CONFLICT]: 'conflict',
  [HttpStatus.UNPROCESSABLE_ENTITY]: 'unprocessable',
  [HttpStatus.PAYLOAD_TOO_LARGE]: 'payload_too_large',
  [HttpStatus.UNSUPPORTED_MEDIA_TYPE]: 'unsupported_media_type',
  [HttpStatus.TOO_MANY_REQUESTS]: 'rate_limited',
  [HttpStatus.PRECONDITION_FAILED]: 'precondition_failed',
  [HttpStatus.PRECONDITION_REQUIRED]: 'precondition_required',
  [HttpStatus.FAILED_DEPENDENCY]: 'failed_dependency',
  [HttpStatus.SERVICE_UNAVAILABLE]: 'upstream_unavailable',
  [HttpStatus.BAD_GATEWAY]: 'upstream_unavailable',
  [HttpStatus.GATEWAY_TIMEOUT]: 'upstream_unavailable',
};

/** Fastify's own errors (body parsing, content type) carry a `code` and a `statusCode`. */
interface FastifyLikeError {
  code: string;
  statusCode: number;
}

const FASTIFY_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON: 'Request body is not valid JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'Request body is empty but declared as JSON',
  FST_ERR_CTP_BODY_TOO_LARGE: 'Request body is too large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported Content-Type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Content-Length does not match the body',
  FST_ERR_MAX_PARAM_LENGTH: 'A path parameter is too long',
  FST_ERR_BAD_URL: 'The URL is malformed',
};

function isFastifyError(error: unknown): error is FastifyLikeError {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as FastifyLikeError).code === 'string' &&
    (error as FastifyLikeError).code.startsWith('FST_') &&
    typeof (error as FastifyLikeError).statusCode === 'number'
  );
}

/**
 * Turns anything thrown while handling a request into a failure every service knows how to render.
 * Only messages written by us reach the client; driver and framework internals are replaced.
 */
export function normalizeFailure(exception: unknown): NormalizedFailure {
  if (exception instanceof RequestValidationError) {
    return {
      kind: 'validation',
      status: 400,
      message: exception.message,
      fieldErrors: exception.fieldErrors,
    };
  }
  if (exception instanceof PreconditionFailedError) {
    return { kind: 'precondition_failed', status: 412, message: exception.message };
  }
  if (exception instanceof PreconditionRequiredError) {
    return { kind: 'precondition_required', status: 428, message: exception.message };
  }
  if (exception instanceof ShuttingDownError) {
    return { kind: 'shutting_down', status: 503, message: exception.message, retryAfterSeconds: 1 };
  }
  if (exception instanceof UpstreamUnavailableError) {
    return { kind: 'upstream_unavailable', status: 503, message: exception.message };
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const kind = KIND_BY_STATUS[status] ?? (status >= 500 ? 'internal' : 'malformed_request');
    const retryAfter = (exception.getResponse() as { retryAfterSeconds?: unknown }).retryAfterSeconds;
    return {
      kind,
      status: kind === 'internal' ? 500 : status,
      message: kind === 'internal' ? 'Unexpected error' : exception.message,
      ...(typeof retryAfter === 'number' ? { retryAfterSeconds: retryAfter } : {}),
    };
  }
  if (isFastifyError(exception)) {
    const status = exception.statusCode;
    const kind = KIND_BY_STATUS[status] ?? (status >= 500 ? 'internal' : 'malformed_request');
    return {
      kind,
      status: kind === 'internal' ? 500 : status,
      message: FASTIFY_MESSAGES[exception.code] ?? (kind === 'internal' ? 'Unexpected error' : 'Bad request'),
    };
  }
  if (exception instanceof QueryFailedError) {
    return databaseFailure(exception as QueryFailedError<Error>);
  }
  if (exception instanceof TypeORMError) {
    return { kind: 'database', status: 500, message: 'The database could not complete the request' };
  }
  return { kind: 'internal', status: 500, message: 'Unexpected error' };
}

/**
 * What the logs may keep of a failure: database errors lose their statement parameters and the
 * driver's detail (row values), everything else keeps its stack for the operators.
 */
export function describeForLog(exception: unknown): Record<string, unknown> {
  if (exception instanceof QueryFailedError) {
    const driverError = exception.driverError as { code?: unknown; constraint?: unknown; table?: unknown };
    return {
      type: 'QueryFailedError',
      message: exception.message,
      code: driverError.code,
      constraint: driverError.constraint,
      table: driverError.table,
    };
  }
  if (exception instanceof Error) {
    return { type: exception.name, message: exception.message, stack: exception.stack };
  }
  return { type: typeof exception, value: String(exception) };
}
