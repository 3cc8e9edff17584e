import { EnvValidationError } from '@platform/runtime';
import { OAuthError } from '../oauth.errors';
import { AuthorizationServerMetadata, issuerUrlOf } from './authorization-server-metadata';

const request = { protocol: 'https', host: 'asked.example:8443' };

describe('AuthorizationServerMetadata', () => {
  it('puts every endpoint under the issuer when JWT_ISSUER is a URL, whatever host was asked', () => {
    const { document, cacheControl } = new AuthorizationServerMetadata(
      'https://api.agency.example',
    ).answerFor(request);

    expect(document).toMatchObject({
      issuer: 'https://api.agency.example',
      token_endpoint: 'https://api.agency.example/v1/oauth/token',
      jwks_uri: 'https://api.agency.example/v1/.well-known/jwks.json',
      revocation_endpoint: 'https://api.agency.example/v1/oauth/revoke',
      service_documentation: 'https://api.agency.example/docs',
    });
    expect(cacheControl).toBe('public, max-age=300');
  });

  it('follows a path in the issuer (main-api behind a proxy path), with or without a trailing slash', () => {
    for (const issuer of ['https://agency.example/main-api', 'https://agency.example/main-api/']) {
      const { document } = new AuthorizationServerMetadata(issuer).answerFor(request);

      expect(document.issuer).toBe(issuer);
      expect(document.token_endpoint).toBe('https://agency.example/main-api/v1/oauth/token');
    }
  });

  it('keeps a JWT_ISSUER that is no URL as the issuer, with the endpoints at the origin asked, never cached', () => {
    const { document, cacheControl } = new AuthorizationServerMetadata('agency-platform').answerFor(request);

    expect(document.issuer).toBe('agency-platform');
    expect(document.token_endpoint).toBe('https://asked.example:8443/v1/oauth/token');
    expect(cacheControl).toBe('no-store');
  });

  it('answers a Host that is no host with invalid_request', () => {
    const answer = () =>
      new AuthorizationServerMetadata('agency-platform').answerFor({ protocol: 'http', host: 'a b' });

    expect(answer).toThrow(OAuthError);
    expect(answer).toThrow('The Host header is not a valid host');
  });
});

describe('issuerUrlOf', () => {
  it('reads http(s) URLs only', () => {
    expect(issuerUrlOf('https://api.agency.example')?.href).toBe('https://api.agency.example/');
    expect(issuerUrlOf('agency-platform')).toBeUndefined();
    expect(issuerUrlOf('urn:agency:platform')).toBeUndefined();
  });

  it('refuses a URL with a query or fragment at boot, naming JWT_ISSUER (RFC 8414 §2)', () => {
    for (const issuer of ['https://api.agency.example/?tenant=1', 'https://api.agency.example/#x']) {
      expect(() => issuerUrlOf(issuer)).toThrow(EnvValidationError);
      expect(() => issuerUrlOf(issuer)).toThrow(/JWT_ISSUER/);
    }
  });
});
