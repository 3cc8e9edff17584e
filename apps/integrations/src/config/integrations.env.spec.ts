import { randomBytes } from 'node:crypto';
import { EnvValidationError, loadEnv } from '@platform/runtime';
import { IntegrationsEnv } from './integrations.env';

const REQUIRED = {
  DATABASE_URL: 'postgres://user:s3cret@db.internal:5432/platform',
  MAIN_API_URL: 'http://main-api:3000',
  INTEGRATIONS_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  CHANGE_ORIGIN_KEY: randomBytes(32).toString('base64'),
};

describe('IntegrationsEnv: outbound webhook settings', () => {
  it('defaults to a running worker, public https targets only, and over 24 hours of retries', () => {
    const env = loadEnv(IntegrationsEnv, REQUIRED);
    const jitteredMinimum = env.DELIVERY_RETRY_SCHEDULE_MS.reduce((total, delay) => total + delay, 0) * 0.8;

    expect(env).toMatchObject({
      DELIVERY_WORKER: 'on',
      DELIVERY_POLL_MS: 1000,
      DELIVERY_TIMEOUT_MS: 10000,
      SUBSCRIPTION_HTTP_ALLOWED_ORIGINS: '',
      SUBSCRIPTION_DISABLE_AFTER_MS: 5 * 24 * 3_600_000,
    });
    expect(jitteredMinimum).toBeGreaterThanOrEqual(24 * 3_600_000);
  });

  it('reads a retry schedule and allowed origins', () => {
    const env = loadEnv(IntegrationsEnv, {
      ...REQUIRED,
      DELIVERY_RETRY_SCHEDULE_MS: '100, 200,300',
      SUBSCRIPTION_HTTP_ALLOWED_ORIGINS: 'http://127.0.0.1:8080, https://hooks.internal,http://[::1]',
      DELIVERY_WORKER: 'off',
    });

    expect(env.DELIVERY_RETRY_SCHEDULE_MS).toEqual([100, 200, 300]);
    expect(env.SUBSCRIPTION_HTTP_ALLOWED_ORIGINS).toBe(
      'http://127.0.0.1:8080, https://hooks.internal,http://[::1]',
    );
    expect(env.DELIVERY_WORKER).toBe('off');
  });

  it.each([
    ['DELIVERY_RETRY_SCHEDULE_MS', '5s,10s'],
    ['DELIVERY_RETRY_SCHEDULE_MS', '100,,200'],
    ['DELIVERY_RETRY_SCHEDULE_MS', '0'],
    ['DELIVERY_RETRY_SCHEDULE_MS', Array<string>(31).fill('1').join(',')],
    ['SUBSCRIPTION_HTTP_ALLOWED_ORIGINS', 'http://127.0.0.1/hooks'],
    ['SUBSCRIPTION_HTTP_ALLOWED_ORIGINS', 'http://user:pass@127.0.0.1'],
    ['SUBSCRIPTION_HTTP_ALLOWED_ORIGINS', '127.0.0.1:8080'],
    ['DELIVERY_WORKER', 'maybe'],
    ['DELIVERY_POLL_MS', '5'],
    ['DELIVERY_TIMEOUT_MS', 'ten'],
    ['SUBSCRIPTION_DISABLE_AFTER_MS', '-1'],
  ])('refuses %s=%s with one line naming it', (name, value) => {
    const attempt = () => loadEnv(IntegrationsEnv, { ...REQUIRED, [name]: value });

    expect(attempt).toThrow(EnvValidationError);
    expect(attempt).toThrow(new RegExp(`invalid configuration: ${name} must`));
  });
});
