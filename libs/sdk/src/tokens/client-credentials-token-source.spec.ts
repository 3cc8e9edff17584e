import { FakeHttpServer } from '@platform/testing';
import { PlatformApiError } from '../errors';
import { ClientCredentialsTokenSource } from './client-credentials-token-source';
import { basicCredentials } from './token-endpoint';

/** RFC 6749 §2.3.1 read back as a server does: base64, split at the first colon, then form-decoded. */
function readBasic(header: string | undefined): [string, string] {
  const decoded = Buffer.from((header ?? '').replace(/^Basic /, ''), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const formDecoded = (part: string): string => new URLSearchParams(`v=${part}`).get('v') ?? '';
  return [formDecoded(decoded.slice(0, colon)), formDecoded(decoded.slice(colon + 1))];
}

describe('ClientCredentialsTokenSource (client_secret_basic)', () => {
  let server: FakeHttpServer;
  let grants = 0;

  beforeEach(async () => {
    grants = 0;
    server = await FakeHttpServer.start((request, response) => {
      const [apiKey, secret] = readBasic(request.headers.authorization);
      const form = new URLSearchParams(request.body);
      const valid =
        apiKey === 'ak_1' && secret === 's3:cr+t/=é ' && form.get('grant_type') === 'client_credentials';
      grants += valid ? 1 : 0;
      response.writeHead(valid ? 200 : 401, { 'content-type': 'application/json' }).end(
        JSON.stringify(
          valid
            ? {
                access_token: `access-${grants}`,
                token_type: 'Bearer',
                expires_in: 120,
                refresh_token: 'r',
              }
            : { error: 'invalid_client', error_description: 'Client authentication failed' },
        ),
      );
    });
  });

  afterEach(() => server.stop());

  it('form-encodes id and secret before Basic, so a colon or plus in the secret survives', () => {
    expect(readBasic(basicCredentials('ak_1', 's3:cr+t/=é '))).toEqual(['ak_1', 's3:cr+t/=é ']);
    expect(basicCredentials('a', 'b')).toBe(`Basic ${Buffer.from('a:b').toString('base64')}`);
  });

  it('posts grant_type=client_credentials as a form to /v1/oauth/token, once for concurrent callers', async () => {
    const source = new ClientCredentialsTokenSource(server.url, {
      apiKey: 'ak_1',
      clientSecret: 's3:cr+t/=é ',
    });

    const tokens = await Promise.all([source.accessToken(), source.accessToken(), source.accessToken()]);

    expect(tokens).toEqual(['access-1', 'access-1', 'access-1']);
    expect(server.requests).toHaveLength(1);
    const [grant] = server.requests;
    expect([grant.method, grant.url, grant.headers['content-type']]).toEqual([
      'POST',
      '/v1/oauth/token',
      'application/x-www-form-urlencoded',
    ]);
    expect(grant.body).toBe('grant_type=client_credentials');
  });

  it('grants again shortly before the token expires, and after a rejected token', async () => {
    let now = 0;
    const source = new ClientCredentialsTokenSource(
      server.url,
      { apiKey: 'ak_1', clientSecret: 's3:cr+t/=é ' },
      { now: () => now },
    );
    expect(await source.accessToken()).toBe('access-1');

    now = 59_000;
    expect(await source.accessToken()).toBe('access-1');
    now = 61_000;
    expect(await source.accessToken()).toBe('access-2');
    source.reject('access-1'); // an older token: nothing to forget
    expect(await source.accessToken()).toBe('access-2');
    source.reject('access-2');
    expect(await source.accessToken()).toBe('access-3');
  });

  it("throws the token endpoint's refusal with its RFC 6749 body", async () => {
    const source = new ClientCredentialsTokenSource(server.url, { apiKey: 'ak_1', clientSecret: 'wrong' });

    const refusal = await source.accessToken().catch((error: unknown) => error);

    expect(refusal).toBeInstanceOf(PlatformApiError);
    expect(refusal).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    expect((refusal as Error).message).toContain('Client authentication failed');
  });
});
