import Fastify, { type FastifyInstance } from 'fastify';
import { pinoHttp } from 'pino-http';
import { jsonLineSink } from '../testing/probe-service';
import type { LogLevel } from '../config/base-service.env';
import { loggerOptions } from './logging.module';
import { currentRequestLogFields, openRequestContext } from './request-context';
import { logCompletedRequests } from './request-log';

interface LogLine {
  level: number;
  msg: string;
  req?: { id: string; method: string; url: string };
  res?: { statusCode: number };
  responseTime?: number;
}

describe('request logs', () => {
  let lines: LogLine[];
  let app: FastifyInstance;

  async function serve(level: LogLevel): Promise<void> {
    lines = [];
    const sink = jsonLineSink(lines);
    // The logger exactly as loggingModule has nestjs-pino build it.
    const logger = pinoHttp(loggerOptions('test', { LOG_LEVEL: level, LOG_PRETTY: false }), sink).logger;
    let counter = 0;
    app = Fastify({ genReqId: () => `req-${++counter}` });
    openRequestContext(app);
    logCompletedRequests(app, logger);
    app.get('/work', async () => {
      // Logged after an await, as a handler's repository call would: the request is still known.
      await new Promise((resolve) => setTimeout(resolve, 5));
      logger.info('doing the work');
      return { done: true };
    });
    app.post('/echo', (request) => {
      logger.info('echoing');
      return request.body;
    });
    app.get('/boom', () => {
      throw new Error('boom');
    });
    app.get('/health/live', () => ({ status: 'ok' }));
    await app.ready();
  }

  afterEach(() => app.close());

  it('names the request on every line made while serving it, and writes one line when it is answered', async () => {
    await serve('info');
    await app.inject({ method: 'GET', url: '/work?x=1' });
    await app.inject({ method: 'POST', url: '/echo', payload: { a: 1 } });

    expect(lines.map(({ msg, req, res }) => ({ msg, req, res }))).toEqual([
      { msg: 'doing the work', req: { id: 'req-1', method: 'GET', url: '/work?x=1' }, res: undefined },
      {
        msg: 'request completed',
        req: { id: 'req-1', method: 'GET', url: '/work?x=1' },
        res: { statusCode: 200 },
      },
      // The context survives body parsing.
      { msg: 'echoing', req: { id: 'req-2', method: 'POST', url: '/echo' }, res: undefined },
      {
        msg: 'request completed',
        req: { id: 'req-2', method: 'POST', url: '/echo' },
        res: { statusCode: 200 },
      },
    ]);
    expect(lines[1]?.responseTime).toEqual(expect.any(Number));
  });

  it('logs 4xx as warn and 5xx as error, skips probes, and writes nothing below the level', async () => {
    await serve('warn');
    await app.inject({ method: 'GET', url: '/work' });
    await app.inject({ method: 'GET', url: '/health/live' });
    await app.inject({ method: 'GET', url: '/nowhere' });
    await app.inject({ method: 'GET', url: '/boom' });

    expect(
      lines.map(({ level, msg, req, res }) => ({ level, msg, url: req?.url, status: res?.statusCode })),
    ).toEqual([
      { level: 40, msg: 'request completed', url: '/nowhere', status: 404 },
      { level: 50, msg: 'request errored', url: '/boom', status: 500 },
    ]);
  });

  it('adds nothing to lines made outside a request', async () => {
    await serve('info');
    expect(currentRequestLogFields()).toEqual({});
  });
});
