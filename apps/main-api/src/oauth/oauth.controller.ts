import { Body, Controller, Headers, HttpCode, Ip, Post, Query, Res, UseFilters } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBasicAuth,
  ApiConsumes,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiServiceUnavailableResponse,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
  getSchemaPath,
} from '@nestjs/swagger';
import { Public } from '@platform/auth';
import type { FastifyReply } from 'fastify';
import { MainApiErrorBodyDto } from '../errors/main-api-error-body.dto';
import { RefreshTokenRequestDto } from './dto/refresh-token-request.dto';
import { RevocationRequestDto } from './dto/revocation-request.dto';
import { isGrantType, TokenQueryDto, TokenRequestDto } from './dto/token-request.dto';
import { TokenResponseDto } from './dto/token-response.dto';
import { OAuthExceptionFilter } from './oauth-exception.filter';
import { OAuthErrorBodyDto } from './dto/oauth-error.dto';
import { OAuthError } from './oauth.errors';
import { clientAuthenticationOf } from './client-authentication';
import { OAuthService } from './oauth.service';

const OAUTH_ERROR_BODY = { type: OAuthErrorBodyDto, description: 'RFC 6749 §5.2 error' };
/**
 * Refused parameters are RFC 6749 errors; a body refused before it is read (malformed JSON, nested
 * beyond the limit, neither form nor JSON) gets the service's error body, as on every route.
 */
const OAUTH_BAD_REQUEST = {
  description:
    'RFC 6749 §5.2 error for refused parameters; PlatformCustomError (AC002) for a body that cannot be read',
  schema: {
    oneOf: [{ $ref: getSchemaPath(OAuthErrorBodyDto) }, { $ref: getSchemaPath(MainApiErrorBodyDto) }],
  },
};
const TOO_MANY_FAILURES = {
  description: 'Too many failed attempts from this IP or for this account; see Retry-After',
};
const BUSY = { description: 'Too many passwords being checked at once; see Retry-After (1 s)' };
const CLIENT_AUTHENTICATION =
  'Clients authenticate with HTTP Basic (api_key:client_secret, each form-encoded as RFC 6749 §2.3.1 says) or with client_id and client_secret in the form (client_secret_post), never both.';

@ApiTags('oauth')
@ApiExtraModels(OAuthErrorBodyDto)
@Public()
@UseFilters(OAuthExceptionFilter)
@Controller('oauth')
export class OAuthController {
  constructor(private readonly oauth: OAuthService) {}

  @Post('token')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Issue tokens: grant_type=client_credentials (Basic auth with api_key:client_secret), refresh_token, or password (legacy)',
    description: `grant_type is read from the query string or the form. ${CLIENT_AUTHENTICATION} grant_type=refresh_token (RFC 6749 §6): a refresh token issued through client credentials is refreshed only with that client's authentication, a browser app's only with its client_id (at /oauth/refreshtoken the refresh token alone is enough). The password grant is kept for compatibility only (RFC 9700 §2.4); browser apps use grant_type=authorization_code with PKCE (public clients: client_id, code, redirect_uri, code_verifier; no secret), after signing in at /oauth/authorize.`,
  })
  @ApiConsumes('application/x-www-form-urlencoded', 'application/json')
  @ApiBasicAuth()
  @ApiOkResponse({ type: TokenResponseDto })
  @ApiBadRequestResponse(OAUTH_BAD_REQUEST)
  @ApiUnauthorizedResponse(OAUTH_ERROR_BODY)
  @ApiTooManyRequestsResponse(TOO_MANY_FAILURES)
  @ApiServiceUnavailableResponse(BUSY)
  async token(
    @Query() query: TokenQueryDto,
    @Body() body: TokenRequestDto,
    @Headers('authorization') authorization: string | undefined,
    @Ip() ip: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<TokenResponseDto> {
    noStore(reply);
    const grantType = query.grant_type ?? body.grant_type;
    if (!grantType) {
      throw new OAuthError('invalid_request', 'grant_type is required');
    }
    if (!isGrantType(grantType)) {
      throw new OAuthError(
        'unsupported_grant_type',
        'grant_type must be client_credentials, refresh_token, authorization_code or password',
      );
    }
    switch (grantType) {
      case 'client_credentials':
        return this.oauth.clientCredentials(clientAuthenticationOf(authorization, body), ip);
      case 'refresh_token':
        if (!body.refresh_token) {
          throw new OAuthError('invalid_request', 'refresh_token is required for grant_type=refresh_token');
        }
        return this.oauth.refresh(
          body.refresh_token,
          clientAuthenticationOf(authorization, body),
          ip,
          body.client_id,
          'token',
        );
      case 'password':
        return this.oauth.password(body.username, body.password, ip);
      case 'authorization_code':
        // A public client (browser app): identified by client_id, not authenticated (RFC 6749 §4.1.3).
        return this.oauth.authorizationCode(body, ip);
    }
  }

  @Post('refreshtoken')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Exchange a refresh token (single use) for new tokens',
    description: `The form field refresh_token alone is enough, for every login (single use, rotated, a replay ends the login). Client credentials, if presented, must be those of the token's client: ${CLIENT_AUTHENTICATION} A client_id given for a browser app's login must be that app's. A login ends REFRESH_TOKEN_ABSOLUTE_TTL_SECONDS after it started, however often it is refreshed. grant_type=refresh_token at /oauth/token is the RFC 6749 §6 form, where a client-credentials login must authenticate its client.`,
  })
  @ApiConsumes('application/x-www-form-urlencoded', 'application/json')
  @ApiBasicAuth()
  @ApiOkResponse({ type: TokenResponseDto })
  @ApiBadRequestResponse(OAUTH_BAD_REQUEST)
  @ApiUnauthorizedResponse(OAUTH_ERROR_BODY)
  @ApiTooManyRequestsResponse(TOO_MANY_FAILURES)
  async refresh(
    @Body() body: RefreshTokenRequestDto,
    @Headers('authorization') authorization: string | undefined,
    @Ip() ip: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<TokenResponseDto> {
    noStore(reply);
    return this.oauth.refresh(
      body.refresh_token,
      clientAuthenticationOf(authorization, body),
      ip,
      body.client_id,
      'refreshtoken',
    );
  }

  @Post('revoke')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Revoke a refresh token or access token, ending its whole login (RFC 7009): log out',
    description: `Every refresh token of the login stops working at once, and its access tokens are refused within 30 s (at once by main-api for tokens it has not seen yet, and by GET /oauth/token-status). A token issued to an API client is revoked only by that client, authenticated: ${CLIENT_AUTHENTICATION} Unknown, expired or already revoked tokens answer 200 as well (RFC 7009 §2.2).`,
  })
  @ApiConsumes('application/x-www-form-urlencoded', 'application/json')
  @ApiBasicAuth()
  @ApiOkResponse({ description: 'Revoked, or not a live token of this client: empty body' })
  @ApiBadRequestResponse(OAUTH_BAD_REQUEST)
  @ApiUnauthorizedResponse(OAUTH_ERROR_BODY)
  @ApiTooManyRequestsResponse(TOO_MANY_FAILURES)
  async revoke(
    @Body() body: RevocationRequestDto,
    @Headers('authorization') authorization: string | undefined,
    @Ip() ip: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    noStore(reply);
    await this.oauth.revoke(body.token, clientAuthenticationOf(authorization, body), ip);
  }
}

function noStore(reply: FastifyReply): void {
  void reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
}
