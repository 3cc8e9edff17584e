import { randomBytes } from 'node:crypto';
import { EnvValidationError, loadEnv } from '@platform/runtime';
import { IntegrationsEnv } from './integrations.env';

const REQUIRED = {
  DATABASE_URL: 'postgres://user:s3cret@db.internal:5432/platform',
  MAIN_API_URL: 'http://main-api:3000',
  INTEGRATIONS_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  CHANGE_ORIGIN_KEY: randomBytes(32).toString('base64'),
};

describe('IntegrationsEnv: what one company may take of the outbound webhooks (issue 20)', () => {
  it('defaults to 4 attempts per company, 8 per host, 3 s to connect and 50 subscriptions', () => {
    expect(loadEnv(IntegrationsEnv, REQUIRED)).toMatchObject({
      DELIVERY_MAX_IN_FLIGHT_PER_COMPANY: 4,
      DELIVERY_MAX_IN_FLIGHT_PER_HOST: 8,
      DELIVERY_CONNECT_TIMEOUT_MS: 3000,
      SUBSCRIPTION_MAX_PER_COMPANY: 50,
    });
  });

  it('reads them', () => {
    expect(
      loadEnv(IntegrationsEnv, {
        ...REQUIRED,
        DELIVERY_MAX_IN_FLIGHT_PER_COMPANY: '2',
        DELIVERY_MAX_IN_FLIGHT_PER_HOST: '20',
        DELIVERY_CONNECT_TIMEOUT_MS: '1500',
        SUBSCRIPTION_MAX_PER_COMPANY: '500',
      }),
    ).toMatchObject({
      DELIVERY_MAX_IN_FLIGHT_PER_COMPANY: 2,
      DELIVERY_MAX_IN_FLIGHT_PER_HOST: 20,
      DELIVERY_CONNECT_TIMEOUT_MS: 1500,
      SUBSCRIPTION_MAX_PER_COMPANY: 500,
    });
  });

  it.each([
    ['DELIVERY_MAX_IN_FLIGHT_PER_COMPANY', '0'],
    ['DELIVERY_MAX_IN_FLIGHT_PER_COMPANY', 'four'],
    ['DELIVERY_MAX_IN_FLIGHT_PER_HOST', '0'],
    ['DELIVERY_MAX_IN_FLIGHT_PER_HOST', '1.5'],
    ['DELIVERY_CONNECT_TIMEOUT_MS', '50'],
    ['DELIVERY_CONNECT_TIMEOUT_MS', '3s'],
    ['SUBSCRIPTION_MAX_PER_COMPANY', '0'],
    ['SUBSCRIPTION_MAX_PER_COMPANY', '-1'],
  ])('refuses %s=%s with one line naming it', (name, value) => {
    const attempt = () => loadEnv(IntegrationsEnv, { ...REQUIRED, [name]: value });

    expect(attempt).toThrow(EnvValidationError);
    expect(attempt).toThrow(new RegExp(`invalid configuration: ${name} must`));
  });
});
