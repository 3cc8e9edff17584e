import { Logger } from '@nestjs/common';
import { EnvValidationError } from '@platform/runtime';
import type { AuthorizationServerMetadataDto } from '../dto/authorization-server-metadata.dto';
import { GRANT_TYPES } from '../dto/token-request.dto';
import { OAuthError } from '../oauth.errors';

/** Where RFC 8414 §3 puts the document for an issuer without a path: the root of its origin. */
export const WELL_KNOWN_METADATA_PATH = '/.well-known/oauth-authorization-server';

/**
 * How clients authenticate at the token and revocation endpoints (RFC 6749 §2.3.1); `none` for the
 * browser apps of the authorization-code flow, which hold no secret.
 */
const CLIENT_AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'none'];

/** The origin a request reached main-api at, as Fastify reads it (forwarded headers only per TRUST_PROXY). */
export interface RequestOrigin {
  protocol: string;
  host: string;
}

/** The document and how long others may keep it. */
export interface MetadataAnswer {
  document: AuthorizationServerMetadataDto;
  cacheControl: string;
}

/**
 * main-api's RFC 8414 metadata. The issuer is JWT_ISSUER, because RFC 8414 §2 and RFC 9068 §2.2
 * make it the access tokens' `iss` and openid-client and jose compare the two; a second setting
 * that had to equal it would only be a way to get it wrong. When JWT_ISSUER is main-api's public URL
 * (what standard clients need), every endpoint is under it and the document never changes. When it
 * is not a URL (the default `agency-platform`, kept so existing tokens and settings keep working),
 * the endpoints are given at the origin the request came to, and discovery by issuer cannot
 * validate: a warning at boot says which setting to change.
 */
export class AuthorizationServerMetadata {
  private readonly fixed?: AuthorizationServerMetadataDto;

  constructor(private readonly issuer: string) {
    const base = issuerUrlOf(issuer);
    if (base) {
      this.fixed = documentAt(issuer, base);
    } else {
      new Logger('OAuth').warn(
        `JWT_ISSUER "${issuer}" is not a URL: RFC 8414 discovery cannot validate the issuer and jose cannot ` +
          "check access tokens against it. Set JWT_ISSUER to main-api's public URL (https://api.example.com) " +
          'on all three services.',
      );
    }
  }

  answerFor(request: RequestOrigin): MetadataAnswer {
    if (this.fixed) {
      return { document: this.fixed, cacheControl: 'public, max-age=300' };
    }
    // Built from the request's own Host: never stored where another request could read it.
    return { document: documentAt(this.issuer, originOf(request)), cacheControl: 'no-store' };
  }
}

/**
 * JWT_ISSUER as a base URL when it is an http(s) URL; undefined when it is a plain name. A URL with
 * a query or fragment cannot be an issuer (RFC 8414 §2): refused at boot, naming the setting.
 */
export function issuerUrlOf(issuer: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return undefined;
  }
  if (issuer.includes('?') || issuer.includes('#')) {
    throw new EnvValidationError([
      'JWT_ISSUER must have no query or fragment when it is a URL (RFC 8414 §2)',
    ]);
  }
  return url;
}

function originOf(request: RequestOrigin): URL {
  try {
    return new URL(`${request.protocol}://${request.host}/`);
  } catch {
    throw new OAuthError('invalid_request', 'The Host header is not a valid host');
  }
}

function documentAt(issuer: string, base: URL): AuthorizationServerMetadataDto {
  // Relative to the issuer's path, so a proxy that mounts main-api under a path is followed.
  const root = base.href.endsWith('/') ? base.href : `${base.href}/`;
  const at = (path: string): string => new URL(path, root).href;
  return {
    issuer,
    authorization_endpoint: at('v1/oauth/authorize'),
    token_endpoint: at('v1/oauth/token'),
    jwks_uri: at('v1/.well-known/jwks.json'),
    revocation_endpoint: at('v1/oauth/revoke'),
    grant_types_supported: [...GRANT_TYPES],
    token_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
    revocation_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
    response_types_supported: ['code'],
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
    service_documentation: at('docs'),
  };
}
