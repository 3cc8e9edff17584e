import { RequestMethod, type DynamicModule } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LoggerModule } from 'nestjs-pino';
import type { BaseServiceEnv } from '../config/base-service.env';
import { requestIdFor } from './request-id';

// Probes and scrapes every few seconds would drown the request log.
const QUIET_ROUTES = ['health/live', 'health/ready', 'metrics'].map((path) => ({
  path,
  method: RequestMethod.GET,
}));

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
 * JSON logs (pino) with the request id on every line; `LOG_PRETTY=true` for humans (local start).
 * Secrets are redacted at the logger, so no call site can leak them by accident.
 */
export function loggingModule(serviceName: string, env: BaseServiceEnv): DynamicModule {
  return LoggerModule.forRoot({
    exclude: QUIET_ROUTES,
    pinoHttp: {
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
      genReqId: (request: IncomingMessage) =>
        (request as IncomingMessage & { id?: string }).id ?? requestIdFor(request),
      customLogLevel: (_request: IncomingMessage, response: ServerResponse, error?: Error) =>
        error || response.statusCode >= 500 ? 'error' : response.statusCode >= 400 ? 'warn' : 'info',
      serializers: {
        req: (request: { id: string; method: string; url: string }) => ({
          id: request.id,
          method: request.method,
          url: request.url,
        }),
        res: (response: { statusCode: number }) => ({ statusCode: response.statusCode }),
      },
      redact: LOG_REDACTION,
    },
  });
}
