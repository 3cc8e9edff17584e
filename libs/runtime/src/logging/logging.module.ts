import type { DynamicModule } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import type { Options } from 'pino-http';
import type { BaseServiceEnv } from '../config/base-service.env';
import { currentRequestLogFields } from './request-context';

/** What never reaches a log line, wherever a call site puts it. */
export const LOG_REDACTION = {
  paths: [
    'req.headers.authorization',
    'req.headers.cookie',
    'headers.authorization',
    '*.password',
    '*.client_secret',
    '*.clientSecret',
    '*.signing_secret',
    '*.refresh_token',
    '*.access_token',
  ],
  censor: '[redacted]',
};

/**
 * JSON logs (pino); `LOG_PRETTY=true` for humans (local start). A line made while serving a request
 * names it (id, method, URL) through pino's `mixin`, read from the request context, so a request
 * pays nothing for logging unless something logs. Request lines come from `logCompletedRequests`.
 * Secrets are redacted at the logger, so no call site can leak them by accident.
 */
export function loggingModule(serviceName: string, env: BaseServiceEnv): DynamicModule {
  return LoggerModule.forRoot({
    // No route gets nestjs-pino's pino-http middleware: it built two child loggers per request.
    forRoutes: [],
    pinoHttp: loggerOptions(serviceName, env),
  });
}

/**
 * The root logger's options. nestjs-pino builds the logger with pino-http, which wraps the `req`
 * and `res` serializers: they receive Node's request and response shapes.
 */
export function loggerOptions(
  serviceName: string,
  env: Pick<BaseServiceEnv, 'LOG_LEVEL' | 'LOG_PRETTY'>,
): Options {
  return {
    name: serviceName,
    level: env.LOG_LEVEL,
    ...(env.LOG_PRETTY
      ? {
          transport: {
            target: 'pino-pretty',
            options: { singleLine: true, translateTime: 'SYS:HH:MM:ss.l' },
          },
        }
      : {}),
    mixin: currentRequestLogFields,
    serializers: {
      req: (request: { id: string; method: string; url: string }) => ({
        id: request.id,
        method: request.method,
        url: request.url,
      }),
      res: (response: { statusCode: number }) => ({ statusCode: response.statusCode }),
    },
    redact: LOG_REDACTION,
  };
}
