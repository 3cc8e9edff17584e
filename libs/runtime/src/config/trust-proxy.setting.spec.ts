import { BaseServiceEnv } from './base-service.env';
import { EnvValidationError } from './env-validation.error';
import { loadEnv } from './load-env';

const DATABASE_URL = 'postgres://user:s3cret@db.internal:5432/platform';

const trustProxyOf = (value?: string) =>
  loadEnv(BaseServiceEnv, { DATABASE_URL, ...(value === undefined ? {} : { TRUST_PROXY: value }) })
    .TRUST_PROXY;

const UNACCEPTED =
  'invalid configuration: TRUST_PROXY must be false, a hop count between 1 and 10, or a ' +
  'comma-separated list of the IP addresses or CIDRs of the trusted proxies';

describe('TRUST_PROXY', () => {
  it('is off by default, so a client-sent X-Forwarded-For is never believed', () => {
    expect(trustProxyOf()).toBe(false);
    expect(trustProxyOf('')).toBe(false);
  });

  it.each([
    ['false', false],
    [' FALSE ', false],
    ['1', 1],
    ['10', 10],
  ])('reads %j as %j', (value, expected) => {
    expect(trustProxyOf(value)).toBe(expected);
  });

  it('reads a list of proxy addresses and CIDRs, IPv4 and IPv6, trimming spaces', () => {
    expect(trustProxyOf('10.0.0.0/8, 192.168.1.7 ,fd00::/8,::1,172.16.0.0/32')).toEqual([
      '10.0.0.0/8',
      '192.168.1.7',
      'fd00::/8',
      '::1',
      '172.16.0.0/32',
    ]);
  });

  it.each([
    ['a hop count of 0', '0'],
    ['too many hops', '11'],
    ['a negative hop count', '-1'],
    ['a fraction', '1.5'],
    ['a host name', 'ingress.internal'],
    ['a malformed address', '10.0.0.256'],
    ['an IPv4 prefix beyond 32', '10.0.0.0/33'],
    ['an IPv6 prefix beyond 128', 'fd00::/129'],
    ['a prefix that is not a number', '10.0.0.0/x'],
    ['two prefixes', '10.0.0.0/8/8'],
    ['an empty entry', '10.0.0.0/8,'],
    ['an IPv6 zone id', 'fe80::1%eth0'],
    ['a word', 'yes'],
  ])('refuses %s with one line naming it', (_case, value) => {
    const attempt = () => trustProxyOf(value);

    expect(attempt).toThrow(EnvValidationError);
    expect(attempt).toThrow(UNACCEPTED);
  });

  it.each(['true', 'TRUE', '*', '0.0.0.0/0', '::/0', '10.0.0.0/8,*'])(
    'refuses %j, which trusts every address, saying to give hops or CIDRs instead',
    (value) => {
      const attempt = () => trustProxyOf(value);

      expect(attempt).toThrow(
        new EnvValidationError([
          'TRUST_PROXY must not trust every address (true, * or a /0 range), because any caller could ' +
            'then choose its own IP with X-Forwarded-For: give a hop count between 1 and 10 or the ' +
            "proxies' IP addresses or CIDRs",
        ]),
      );
    },
  );
});
