import { Controller, Get, HttpCode, UnauthorizedException } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiNoContentResponse,
  ApiOperation,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { CurrentPrincipal, REVOKED_TOKEN_MESSAGE, type Principal } from '@platform/auth';
import { MainApiErrorBodyDto } from '../../errors/main-api-error-body.dto';
import { DatabaseTokenStatus } from './database-token-status';

/**
 * How planner and integrations learn of revocations: they send a token they have just verified, and
 * main-api answers from its database, bypassing its own cache, so their delay is theirs alone.
 */
@ApiTags('oauth')
@Controller('oauth/token-status')
export class TokenStatusController {
  constructor(private readonly status: DatabaseTokenStatus) {}

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
}
