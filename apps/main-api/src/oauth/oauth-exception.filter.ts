import { Catch, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { RequestValidationError } from '@platform/runtime';
import type { FastifyReply } from 'fastify';
import { OAuthError } from './oauth.errors';

/**
 * The token endpoints speak OAuth: their failures are `{error, error_description}` (RFC 6749 §5.2),
 * including malformed parameters. Everything else (429, 500) falls through to the main-api filter.
 */
@Catch(OAuthError, RequestValidationError)
export class OAuthExceptionFilter implements ExceptionFilter {
  catch(exception: OAuthError | RequestValidationError, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const error =
      exception instanceof OAuthError
        ? exception
        : new OAuthError('invalid_request', firstMessagePerField(exception) || 'Invalid request');
    void sendOAuthError(reply, error);
  }
}

/** An OAuth failure as RFC 6749 §5.2 answers it, with the challenge it asks for on invalid_client. */
export function sendOAuthError(reply: FastifyReply, error: OAuthError): FastifyReply {
  void reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
  if (error.error === 'invalid_client') {
    void reply.header('www-authenticate', 'Basic realm="agency-platform", charset="UTF-8"');
  }
  return reply.status(error.status).send({ error: error.error, error_description: error.description });
}

function firstMessagePerField(error: RequestValidationError): string {
  const messages = new Map<string, string>();
  for (const fieldError of error.fieldErrors) {
    if (!messages.has(fieldError.field)) {
      messages.set(fieldError.field, fieldError.message);
    }
  }
  return [...messages.values()].join('; ');
}
