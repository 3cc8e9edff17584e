import { BaseServiceEnv } from './base-service.env';
import { EnvValidationError } from './env-validation.error';
import { loadEnv } from './load-env';

const DATABASE_URL = 'postgres://user:s3cret@db.internal:5432/platform';

const corsOriginsOf = (value?: string) =>
  loadEnv(BaseServiceEnv, {
    DATABASE_URL,
    ...(value === undefined ? {} : { CORS_ALLOWED_ORIGINS: value }),
  }).CORS_ALLOWED_ORIGINS;

const UNACCEPTED =
  'CORS_ALLOWED_ORIGINS must be a comma-separated list of exact origins as a browser sends them, ' +
  'such as https://app.example.com,http://localhost:5173 (http or https, lower-case host, optional ' +
  'port; no path, no trailing slash), or empty for no CORS';

describe('CORS_ALLOWED_ORIGINS', () => {
  it('is empty by default, which leaves CORS off', () => {
    expect(corsOriginsOf()).toEqual([]);
    expect(corsOriginsOf('')).toEqual([]);
    expect(corsOriginsOf('  ')).toEqual([]);
  });

  it('reads a list of origins, http and https, with ports, IPv4 and IPv6 hosts, trimming spaces', () => {
    expect(
      corsOriginsOf(
        'https://app.example.com, http://localhost:5173 ,http://127.0.0.1:5173,http://[::1]:8080',
      ),
    ).toEqual([
      'https://app.example.com',
      'http://localhost:5173',
      'http://127.0.0.1:5173',
      'http://[::1]:8080',
    ]);
  });

  it.each([
    ['a path', 'https://app.example.com/app'],
    ['a trailing slash', 'https://app.example.com/'],
    ['a query', 'https://app.example.com?x=1'],
    ['user info', 'https://user@app.example.com'],
    ['no scheme', 'app.example.com'],
    ['a host and port without scheme', 'localhost:5173'],
    ['another scheme', 'ftp://files.example.com'],
    ['a file URL', 'file:///tmp/page.html'],
    ['an upper-case host, which browsers never send', 'https://App.example.com'],
    ['a default port, which browsers leave out', 'https://app.example.com:443'],
    ['a port out of range', 'http://localhost:70000'],
    ['a host with characters no browser sends', 'https://app$.example.com'],
    ['an empty entry', 'https://app.example.com,'],
    ['a word', 'yes'],
  ])('refuses %s with one line naming it', (_case, value) => {
    const attempt = () => corsOriginsOf(value);

    expect(attempt).toThrow(new EnvValidationError([UNACCEPTED]));
  });

  it.each(['*', ' * ', 'https://app.example.com,*', 'https://*.example.com', 'null'])(
    'refuses %j, which would let any page call the services, saying to list origins instead',
    (value) => {
      const attempt = () => corsOriginsOf(value);

      expect(attempt).toThrow(
        new EnvValidationError([
          'CORS_ALLOWED_ORIGINS must list the allowed origins one by one, never * or null (what ' +
            "sandboxed frames send): only the platform's own web apps should call it from a browser",
        ]),
      );
    },
  );
});
