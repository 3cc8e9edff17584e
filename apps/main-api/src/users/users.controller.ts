import { User } from './user.entity';
import { Body, Controller, Delete, Get, Param, Post, Put, Query } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentPrincipal, Permission, RequirePermission, type Principal } from '@platform/auth';
import { type ListAnswer, ApiPaginatedResponse, ApiFiltersExample } from '@platform/contracts';
import { ParseIdPipe, ConditionalRead, ConditionalResource } from '@platform/runtime';
import { MainApiErrorBodyDto } from '../errors/main-api-error-body.dto';
import { CreateUserDto, UpdateUserDto, UserDto, UsersListQueryDto } from './dto/user.dto';
import { UsersService } from './users.service';
import { Idempotent } from '../idempotency/idempotent.decorator';

const ROLE_GRANTS =
  'Roles 1-2 (users and API clients alike). Only a C-Level (role 1) creates, changes or deletes a ' +
  'C-Level user; you grant only roles at or below your own (role_id >= yours).';

@ApiTags('users')
@Controller('users')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Get('me')
  @ApiBearerAuth()
  @ApiOperation({ summary: 'The user of the access token (404 for an API client token)' })
  @ApiOkResponse({ type: UserDto })
  @ApiNotFoundResponse({
    type: MainApiErrorBodyDto,
    description: 'The token belongs to an API client, not a user',
  })
  async me(@CurrentPrincipal() principal: Principal): Promise<UserDto> {
    return UserDto.from(await this.users.get(principal.userId ?? 0));
  }

  @Post()
  @Idempotent()
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOperation({
    summary: 'Create a user (422 AC004 when the e-mail is taken)',
    description: `${ROLE_GRANTS} A role above your own is refused with 403 AC006.`,
  })
  @ApiCreatedResponse({ type: UserDto })
  @ApiForbiddenResponse({
    type: MainApiErrorBodyDto,
    description: 'When role_id is above your role, or is 1 (C-Level) and you are not C-Level',
  })
  async create(@Body() body: CreateUserDto, @CurrentPrincipal() caller: Principal): Promise<UserDto> {
    return UserDto.from(await this.users.create(body, caller));
  }

  @Get()
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({
    summary: 'List users (filters: name, email, role_id, hidden, user_position_id), or a batch by ids',
  })
  @ApiFiltersExample({ role_id: [3, 4], hidden: false })
  @ApiPaginatedResponse(UserDto)
  list(@Query() query: UsersListQueryDto): Promise<ListAnswer<UserDto>> {
    return this.users.list(query);
  }

  @Get(':id')
  @ConditionalRead()
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({ summary: "A user of the caller's company" })
  @ApiOkResponse({ type: UserDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async get(@Param('id', ParseIdPipe) id: number): Promise<UserDto> {
    return UserDto.from(await this.users.get(id));
  }

  @Put(':id')
  @ConditionalResource(User)
  @ApiOperation({
    summary: 'Update a user (only the fields sent)',
    description: `${ROLE_GRANTS} Nobody changes their own role_id; a user ranked above you cannot be changed.`,
  })
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOkResponse({ type: UserDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  @ApiForbiddenResponse({
    type: MainApiErrorBodyDto,
    description:
      'For a change of your own role_id, a role above yours, a user ranked above you, or a C-Level user unless you are one',
  })
  async update(
    @Param('id', ParseIdPipe) id: number,
    @Body() body: UpdateUserDto,
    @CurrentPrincipal() caller: Principal,
  ): Promise<UserDto> {
    return UserDto.from(await this.users.update(id, body, caller));
  }

  @Delete(':id')
  @ConditionalResource(User)
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOperation({
    summary: 'Delete a user (soft delete; answers the deleted user)',
    description: `${ROLE_GRANTS} A user ranked above you cannot be deleted.`,
  })
  @ApiOkResponse({ type: UserDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  @ApiForbiddenResponse({
    type: MainApiErrorBodyDto,
    description: 'For a user ranked above you (a C-Level user, unless you are one)',
  })
  async remove(
    @Param('id', ParseIdPipe) id: number,
    @CurrentPrincipal() caller: Principal,
  ): Promise<UserDto> {
    return UserDto.from(await this.users.remove(id, caller));
  }
}
