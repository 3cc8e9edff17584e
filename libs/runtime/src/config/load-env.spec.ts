import { BaseServiceEnv } from './base-service.env';
import { EnvValidationError } from './env-validation.error';
import { loadEnv } from './load-env';

const DATABASE_URL = 'postgres://user:s3cret@db.internal:5432/platform';

describe('loadEnv', () => {
  it('applies defaults and converts numbers and booleans', () => {
    const env = loadEnv(BaseServiceEnv, { DATABASE_URL, PORT: '4000', LOG_PRETTY: 'yes' });

    expect(env.PORT).toBe(4000);
    expect(env.LOG_PRETTY).toBe(true);
    expect(env.LOG_LEVEL).toBe('info');
    expect(env.DATABASE_POOL_MAX).toBe(10);
    expect(env.DATABASE_URL).toBe(DATABASE_URL);
  });

  it('ignores variables it does not declare', () => {
    const env = loadEnv(BaseServiceEnv, { DATABASE_URL, SOMETHING_ELSE: 'x' });

    expect(env).not.toHaveProperty('SOMETHING_ELSE');
  });

  it('names a missing required variable and what it expects', () => {
    expect(() => loadEnv(BaseServiceEnv, {})).toThrow(
      new EnvValidationError(['DATABASE_URL must be a postgres:// connection URL (it is required)']),
    );
  });

  it.each([
    ['PORT', 'abc', 'PORT must be an integer between 0 and 65535'],
    ['PORT', '70000', 'PORT must be an integer between 0 and 65535'],
    ['LOG_LEVEL', 'loud', 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent'],
    ['LOG_PRETTY', 'maybe', 'LOG_PRETTY must be true or false'],
    [
      'DATABASE_URL',
      'mysql://root@db/x',
      'DATABASE_URL must be a postgres:// connection URL (it is required)',
    ],
  ])('rejects %s=%s with one line naming it', (name, value, expected) => {
    const attempt = () => loadEnv(BaseServiceEnv, { DATABASE_URL, [name]: value });

    expect(attempt).toThrow(EnvValidationError);
    expect(attempt).toThrow(`invalid configuration: ${expected}`);
  });

  it('never echoes a value, which may be a secret', () => {
    const secretUrl = 'mysql://admin:hunter2@db/x';

    const failure = (() => {
      try {
        loadEnv(BaseServiceEnv, { DATABASE_URL: secretUrl });
        return undefined;
      } catch (error) {
        return error as Error;
      }
    })();

    expect(failure).toBeInstanceOf(EnvValidationError);
    expect(failure?.message).not.toContain('hunter2');
  });

  it('treats an empty variable as unset', () => {
    expect(loadEnv(BaseServiceEnv, { DATABASE_URL, PORT: '' }).PORT).toBe(3000);
  });
});
