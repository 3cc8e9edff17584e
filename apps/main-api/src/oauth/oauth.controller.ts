import { Body, Controller, Headers, HttpCode, Ip, Post, Query, Res, UseFilters } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBasicAuth,
  ApiConsumes,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiServiceUnavailableResponse,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { Public } from '@platform/auth';
import type { FastifyReply } from 'fastify';
import { RefreshTokenRequestDto } from './dto/refresh-token-request.dto';
import { isGrantType, TokenQueryDto, TokenRequestDto } from './dto/token-request.dto';
import { TokenResponseDto } from './dto/token-response.dto';
import { OAuthExceptionFilter } from './oauth-exception.filter';
import { OAuthError } from './oauth.errors';
import { clientCredentialsOf } from './client-authentication';
import { OAuthService, type ClientCredentials } from './oauth.service';

const OAUTH_ERROR_BODY = { description: 'RFC 6749 error: {error, error_description}' };
const TOO_MANY_FAILURES = {
  description: 'Too many failed attempts from this IP or for this account; see Retry-After',
};
const BUSY = { description: 'Too many passwords being checked at once; see Retry-After (1 s)' };

@ApiTags('oauth')
@Public()
@UseFilters(OAuthExceptionFilter)
@Controller('oauth')
export class OAuthController {
  constructor(private readonly oauth: OAuthService) {}

  @Post('token')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Issue tokens: grant_type=client_credentials (Basic auth with api_key:client_secret) or password',
    description:
      'grant_type is read from the query string or the form. The authorization-code flow is planned, not offered yet.',
  })
  @ApiConsumes('application/x-www-form-urlencoded', 'application/json')
  @ApiBasicAuth()
  @ApiOkResponse({ type: TokenResponseDto })
  @ApiBadRequestResponse(OAUTH_ERROR_BODY)
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
      throw new OAuthError('unsupported_grant_type', 'grant_type must be client_credentials or password');
    }
    switch (grantType) {
      case 'client_credentials':
        return this.oauth.clientCredentials(clientOrRefusal(authorization), ip);
      case 'password':
        return this.oauth.password(body.username, body.password, ip);
    }
  }

  @Post('refreshtoken')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Exchange a refresh token (single use) for new tokens',
    description:
      'A refresh token issued through client credentials must be presented with the same Basic authentication (RFC 6749 §6). A login ends REFRESH_TOKEN_ABSOLUTE_TTL_SECONDS after it started, however often it is refreshed.',
  })
  @ApiConsumes('application/x-www-form-urlencoded', 'application/json')
  @ApiBasicAuth()
  @ApiOkResponse({ type: TokenResponseDto })
  @ApiBadRequestResponse(OAUTH_ERROR_BODY)
  @ApiUnauthorizedResponse(OAUTH_ERROR_BODY)
  @ApiTooManyRequestsResponse(TOO_MANY_FAILURES)
  async refresh(
    @Body() body: RefreshTokenRequestDto,
    @Headers('authorization') authorization: string | undefined,
    @Ip() ip: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<TokenResponseDto> {
    noStore(reply);
    return this.oauth.refresh(body.refresh_token, clientOrRefusal(authorization), ip);
  }
}

/** Basic credentials, or a refusal of a malformed header (it names no client to count against). */
function clientOrRefusal(authorization: string | undefined): ClientCredentials | undefined {
  const client = clientCredentialsOf(authorization);
  if (client === null) {
    throw new OAuthError('invalid_client', 'Client authentication failed');
  }
  return client;
}

function noStore(reply: FastifyReply): void {
  void reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
}
