import { Writable } from 'node:stream';
import pino from 'pino';
import { LOG_REDACTION } from './logging.module';

describe('log redaction', () => {
  it('keeps secrets out of every log line, wherever they are put', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logger = pino({ redact: LOG_REDACTION }, sink);

    logger.info({
      req: { headers: { authorization: 'Bearer eyJ.secret-token', cookie: 'sid=secret-cookie' } },
    });
    logger.info({ body: { username: 'ada@x.test', password: 'secret-password' } });
    logger.info({ credentials: { client_secret: 'secret-client', clientSecret: 'secret-client-2' } });
    logger.info({ answer: { access_token: 'secret-access', refresh_token: 'secret-refresh' } });
    logger.info({ source: { signing_secret: 'whsec_secret-signing' } });

    const output = lines.join('');
    expect(output).not.toMatch(/secret-/);
    expect(output.match(/\[redacted\]/g)).toHaveLength(8);
    expect(output).toContain('ada@x.test');
  });
});
