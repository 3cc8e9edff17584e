import { Logger, type ArgumentsHost, type LoggerService } from '@nestjs/common';
import { TokenStatusUnavailableError } from '@platform/auth';
import Fastify, { type FastifyInstance } from 'fastify';
import { pinoHttp } from 'pino-http';
import { jsonLineSink } from '../testing/probe-service';
import { loggerOptions } from '../logging/logging.module';
import { openRequestContext } from '../logging/request-context';
import { logCompletedRequests } from '../logging/request-log';
import { PlatformExceptionFilter } from './platform-exception.filter';
import { ShuttingDownError, UpstreamUnavailableError } from './upstream-unavailable.error';

interface LogLine {
  level: number;
  msg: string;
  err?: { type: string; message: string; stack?: string };
  reason?: { type: string; message: string };
  res?: { statusCode: number };
}

const WARN = 40;
const ERROR = 50;

describe('PlatformExceptionFilter: what a failed request writes to the log', () => {
  let lines: LogLine[];
  let app: FastifyInstance;

  beforeEach(async () => {
    lines = [];
    const sink = jsonLineSink(lines);
    // The root logger as loggingModule has nestjs-pino build it, and Nest's Logger (the filter's)
    // writing to it, as `app.useLogger` makes it in every service.
    const logger = pinoHttp(loggerOptions('test', { LOG_LEVEL: 'info', LOG_PRETTY: false }), sink).logger;
    const toPino =
      (level: 'info' | 'warn' | 'error') =>
      (message: unknown, ...rest: unknown[]): void => {
        if (typeof message === 'object' && message !== null) {
          logger[level](message, String(rest[0]));
        } else {
          logger[level](String(message));
        }
      };
    const nestLogger: LoggerService = { log: toPino('info'), warn: toPino('warn'), error: toPino('error') };
    Logger.overrideLogger(nestLogger);

    const filter = new PlatformExceptionFilter((failure) => ({
      status: failure.status,
      body: { error: failure.kind, message: failure.message },
    }));
    app = Fastify();
    openRequestContext(app);
    logCompletedRequests(app, logger);
    app.setErrorHandler((error, request, reply) => {
      const host = { switchToHttp: () => ({ getRequest: () => request, getResponse: () => reply }) };
      filter.catch(error, host as unknown as ArgumentsHost);
    });
    app.get('/breaker-open', () => {
      throw new UpstreamUnavailableError('main-api', 'main-api is unavailable, try again later');
    });
    app.get('/token-status-unavailable', () => {
      throw new TokenStatusUnavailableError(2);
    });
    app.get('/shutting-down', () => {
      throw new ShuttingDownError();
    });
    app.get('/boom', () => {
      throw new TypeError('x is undefined');
    });
    await app.ready();
  });

  afterEach(async () => {
    Logger.overrideLogger(false);
    await app.close();
  });

  const warningsAndErrors = (): LogLine[] => lines.filter((line) => line.level >= WARN);

  it.each([
    ['/breaker-open', 'UpstreamUnavailableError', undefined],
    ['/token-status-unavailable', 'TokenStatusUnavailableError', '2'],
    ['/shutting-down', 'ShuttingDownError', '1'],
  ])(
    'writes one warn line, with the reason, for a 503 refused by design (%s)',
    async (url, type, retryAfter) => {
      const response = await app.inject({ method: 'GET', url });

      expect(response.statusCode).toBe(503);
      expect(response.headers['retry-after']).toBe(retryAfter);
      expect(warningsAndErrors()).toEqual([
        expect.objectContaining({
          level: WARN,
          msg: 'request refused',
          res: { statusCode: 503 },
          reason: { type, message: expect.any(String) as string },
        }),
      ]);
    },
  );

  it('still writes an unexpected 500 at error level, with its stack', async () => {
    const response = await app.inject({ method: 'GET', url: '/boom' });

    expect(response.statusCode).toBe(500);
    expect(warningsAndErrors().map(({ level, msg }) => ({ level, msg }))).toEqual([
      { level: ERROR, msg: 'request failed with 500' },
      { level: ERROR, msg: 'request errored' },
    ]);
    expect(warningsAndErrors()[0]?.err?.stack).toContain('x is undefined');
  });
});
