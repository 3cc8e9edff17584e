import { Body, Controller, Headers, HttpCode, Post, Query, Res, UseFilters, UseGuards } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBasicAuth,
  ApiConsumes,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
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
import { OAuthService } from './oauth.service';
import { TokenEndpointThrottlerGuard } from './rate-limit/token-endpoint-throttler.guard';

const OAUTH_ERROR_BODY = { description: 'RFC 6749 error: {error, error_description}' };

@ApiTags('oauth')
@Public()
@UseGuards(TokenEndpointThrottlerGuard)
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
  @ApiTooManyRequestsResponse({ description: 'Rate limited; see Retry-After' })
  async token(
    @Query() query: TokenQueryDto,
    @Body() body: TokenRequestDto,
    @Headers('authorization') authorization: string | undefined,
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
        return this.oauth.clientCredentials(authorization);
      case 'password':
        return this.oauth.password(body.username, body.password);
    }
  }

  @Post('refreshtoken')
  @HttpCode(200)
  @ApiOperation({ summary: 'Exchange a refresh token (single use) for new tokens' })
  @ApiConsumes('application/x-www-form-urlencoded', 'application/json')
  @ApiOkResponse({ type: TokenResponseDto })
  @ApiBadRequestResponse(OAUTH_ERROR_BODY)
  @ApiTooManyRequestsResponse({ description: 'Rate limited; see Retry-After' })
  async refresh(
    @Body() body: RefreshTokenRequestDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<TokenResponseDto> {
    noStore(reply);
    return this.oauth.refresh(body.refresh_token);
  }
}

function noStore(reply: FastifyReply): void {
  void reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
}
