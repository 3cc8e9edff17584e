import { generateKeyPairSync, randomUUID, sign, type KeyObject } from 'node:crypto';
import { rsaThumbprint } from '../keys/jwk';
import { VerificationKeySource } from '../keys/verification-key-source';
import { JwtStrategy } from './jwt.strategy';

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const kid = rsaThumbprint(publicKey);
const settings = { issuer: 'agency-platform', audience: 'agency-platform-api' };

const encode = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');

function tokenWithHeader(header: Record<string, unknown>): string {
  const now = Math.floor(Date.now() / 1000);
  const claims = {
    iss: settings.issuer,
    aud: settings.audience,
    sub: 'user:1',
    company_id: 1,
    role_id: 1,
    iat: now,
    exp: now + 600,
    jti: randomUUID(),
  };
  const input = `${encode({ alg: 'RS256', kid, ...header })}.${encode(claims)}`;
  return `${input}.${sign('sha256', Buffer.from(input), privateKey).toString('base64url')}`;
}

class CountingKeySource extends VerificationKeySource {
  lookups = 0;

  keyFor(requested: string): Promise<KeyObject | undefined> {
    this.lookups += 1;
    return Promise.resolve(requested === kid ? publicKey : undefined);
  }
}

type Outcome = { accepted: true } | { accepted: false; reason: string };

/** Runs the strategy as passport does for one request, and reports what it decided. */
function authenticate(keys: VerificationKeySource, token: string): Promise<Outcome> {
  const strategy = new JwtStrategy(settings, keys) as unknown as {
    success(user: unknown): void;
    fail(info: unknown): void;
    error(error: unknown): void;
    authenticate(request: object): void;
  };
  return new Promise((resolve) => {
    strategy.success = () => resolve({ accepted: true });
    strategy.fail = (info) => resolve({ accepted: false, reason: String(info) });
    strategy.error = (error) => resolve({ accepted: false, reason: String(error) });
    strategy.authenticate({ headers: { authorization: `Bearer ${token}` } });
  });
}

describe('JwtStrategy: token type (RFC 9068, RFC 8725 §3.11)', () => {
  it.each(['at+jwt', 'AT+JWT', 'application/at+jwt', 'Application/At+Jwt'])(
    'accepts an access token typed %s',
    async (typ) => {
      await expect(authenticate(new CountingKeySource(), tokenWithHeader({ typ }))).resolves.toEqual({
        accepted: true,
      });
    },
  );

  it.each([
    ['no typ', {}],
    ['typ JWT', { typ: 'JWT' }],
    ['typ jwt', { typ: 'jwt' }],
    ['another JWT type', { typ: 'application/jwt' }],
    ['a type merely containing at+jwt', { typ: 'id+at+jwt' }],
    ['a typ that is not a string', { typ: ['at+jwt'] }],
  ])('refuses a correctly signed token with %s, before looking up any key', async (_case, header) => {
    const keys = new CountingKeySource();

    const outcome = await authenticate(keys, tokenWithHeader(header));

    expect(outcome).toEqual({ accepted: false, reason: expect.stringContaining('unsupported token header') });
    expect(keys.lookups).toBe(0);
  });
});
