import { BaseServiceEnv } from './base-service.env';
import { EnvValidationError } from './env-validation.error';
import { loadEnv } from './load-env';

const corsHeadersOf = (value?: string) =>
  loadEnv(BaseServiceEnv, {
    DATABASE_URL: 'postgres://user:s3cret@db.internal:5432/platform',
    ...(value === undefined ? {} : { CORS_ALLOWED_HEADERS: value }),
  }).CORS_ALLOWED_HEADERS;

const UNACCEPTED =
  'CORS_ALLOWED_HEADERS must be a comma-separated list of request header names, such as ' +
  "traceparent,tracestate,sentry-trace,baggage (letters, digits and !#$%&'*+-.^_`|~), or empty for " +
  'none beyond the defaults';

describe('CORS_ALLOWED_HEADERS', () => {
  it('adds nothing by default', () => {
    expect(corsHeadersOf()).toEqual([]);
    expect(corsHeadersOf('')).toEqual([]);
    expect(corsHeadersOf(' ')).toEqual([]);
  });

  it('reads header names, lower-cased as browsers ask for them, trimmed and once each', () => {
    expect(corsHeadersOf('traceparent, TraceState ,sentry-trace,baggage,traceparent')).toEqual([
      'traceparent',
      'tracestate',
      'sentry-trace',
      'baggage',
    ]);
  });

  it.each([
    ['a space inside a name', 'trace parent'],
    ['a colon', 'traceparent:'],
    ['an empty entry', 'traceparent,'],
    ['a quote', '"traceparent"'],
    ['a non-ASCII letter', 'tracé'],
  ])('refuses %s with one line naming the variable', (_case, value) => {
    expect(() => corsHeadersOf(value)).toThrow(new EnvValidationError([UNACCEPTED]));
  });

  it.each(['*', 'traceparent, *'])('refuses %j, which would let a page send any header', (value) => {
    expect(() => corsHeadersOf(value)).toThrow(
      new EnvValidationError([
        'CORS_ALLOWED_HEADERS must list the extra request headers one by one, never *: a page ' +
          'would then be allowed to send any header',
      ]),
    );
  });
});
