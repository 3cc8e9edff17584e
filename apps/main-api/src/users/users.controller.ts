import { Controller, Get, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Permission, RequirePermission, type Principal } from '@platform/auth';
import { ParseIdPipe } from '@platform/runtime';
import { UserSummaryDto } from './dto/user-summary.dto';
import { UsersService } from './users.service';

@ApiTags('users')
@Controller('users')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Get('me')
  @ApiBearerAuth()
  @ApiOperation({ summary: 'The user of the access token (404 for an API client token)' })
  @ApiOkResponse({ type: UserSummaryDto })
  @ApiNotFoundResponse({ description: 'The token belongs to an API client, not a user' })
  async me(@CurrentPrincipal() principal: Principal): Promise<UserSummaryDto> {
    return UserSummaryDto.from(await this.users.get(principal.userId ?? 0));
  }

  @Get(':id')
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({ summary: "A user of the caller's company" })
  @ApiOkResponse({ type: UserSummaryDto })
  @ApiNotFoundResponse({ description: 'No such user in your company' })
  async get(@Param('id', ParseIdPipe) id: number): Promise<UserSummaryDto> {
    return UserSummaryDto.from(await this.users.get(id));
  }
}
