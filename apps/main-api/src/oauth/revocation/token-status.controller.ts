import { Body, Controller, Get, HttpCode, Post, UnauthorizedException } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { CurrentPrincipal, Public, REVOKED_TOKEN_MESSAGE, type Principal } from '@platform/auth';
import { MainApiErrorBodyDto } from '../../errors/main-api-error-body.dto';
import { DatabaseTokenStatus } from './database-token-status';
import { TokenStatusBatchAnswerDto, TokenStatusBatchDto } from './dto/token-status-batch.dto';
import { RevokedTokens } from './revoked-tokens';

/**
 * How planner and integrations learn of revocations: they send a token they have just verified, and
 * main-api answers from its database, bypassing its own cache, so their delay is theirs alone.
 */
@ApiTags('oauth')
@Controller('oauth/token-status')
export class TokenStatusController {
  constructor(
    private readonly status: DatabaseTokenStatus,
    private readonly revokedTokens: RevokedTokens,
  ) {}

  @Get()
  @HttpCode(204)
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'Whether the bearer token still counts: 204 when it does, 401 when it is revoked or invalid',
    description:
      'A token is revoked when its user was deleted or changed role, its API client was revoked or changed role, or its login (refresh-token family) was revoked.',
  })
  @ApiNoContentResponse({ description: 'The token is valid and not revoked' })
  @ApiUnauthorizedResponse({ type: MainApiErrorBodyDto })
  async check(@CurrentPrincipal() principal: Principal): Promise<void> {
    if (await this.status.isRevoked(principal)) {
      throw new UnauthorizedException(REVOKED_TOKEN_MESSAGE);
    }
  }

  @Post('batch')
  @Public()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Which of these tokens no longer count, in one question',
    description:
      "For a service that holds many tokens (the planner checks every open change stream's login every 30 s). Each token is verified as a bearer token would be, so it needs no other credential: the answer tells only a token's holder about it. One that does not verify, or whose subject or login was revoked, answers true.",
  })
  @ApiOkResponse({ type: TokenStatusBatchAnswerDto })
  @ApiBadRequestResponse({ type: MainApiErrorBodyDto })
  async batch(@Body() body: TokenStatusBatchDto): Promise<TokenStatusBatchAnswerDto> {
    return { revoked: await this.revokedTokens.among(body.tokens) };
  }
}
