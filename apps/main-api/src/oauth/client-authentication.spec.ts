import { clientAuthenticationOf } from './client-authentication';
import { OAuthError } from './oauth.errors';

const basic = (credentials: string) => `Basic ${Buffer.from(credentials).toString('base64')}`;

function refusalOf(run: () => unknown): OAuthError | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof OAuthError) {
      return error;
    }
    throw error;
  }
  return undefined;
}

describe('clientAuthenticationOf', () => {
  it('reads Basic credentials as the documented form sends them', () => {
    expect(clientAuthenticationOf(basic('ak_123:s3cr3t_x'), {})).toEqual({
      apiKey: 'ak_123',
      secret: 's3cr3t_x',
    });
  });

  it('form-decodes Basic credentials as RFC 6749 §2.3.1 encodes them (openid-client sends _ as %5F)', () => {
    expect(clientAuthenticationOf(basic('ak%5F123:a%2Bb+c%3A'), {})).toEqual({
      apiKey: 'ak_123',
      secret: 'a+b c:',
    });
  });

  it('reads client_secret_post from the form, and nothing from a client_id alone', () => {
    expect(clientAuthenticationOf(undefined, { client_id: 'ak_1', client_secret: 's' })).toEqual({
      apiKey: 'ak_1',
      secret: 's',
    });
    expect(clientAuthenticationOf(undefined, { client_id: 'ak_1' })).toBeUndefined();
    expect(clientAuthenticationOf(undefined, {})).toBeUndefined();
  });

  it('takes a client_id beside Basic when it names the same client', () => {
    expect(clientAuthenticationOf(basic('ak_1:s'), { client_id: 'ak_1' })).toEqual({
      apiKey: 'ak_1',
      secret: 's',
    });
  });

  it.each([
    ['Basic and client_secret', basic('ak_1:s'), { client_id: 'ak_1', client_secret: 's' }],
    ['Basic and another client_id', basic('ak_1:s'), { client_id: 'ak_2' }],
    ['a client_secret without client_id', undefined, { client_secret: 's' }],
  ])('refuses %s as invalid_request (one method per request, RFC 6749 §2.3)', (_case, header, form) => {
    expect(refusalOf(() => clientAuthenticationOf(header, form))).toMatchObject({
      error: 'invalid_request',
    });
  });

  it.each([
    ['another scheme', 'Bearer abc'],
    ['no separator', basic('ak_1')],
    ['an empty id', basic(':secret')],
    ['a broken percent-encoding', basic('ak%E0:secret')],
  ])('refuses a malformed Basic header (%s) as invalid_client', (_case, header) => {
    expect(refusalOf(() => clientAuthenticationOf(header, {}))).toMatchObject({ error: 'invalid_client' });
  });
});
