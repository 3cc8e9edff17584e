import { Body, Controller, Delete, Get, Param, Post, Put, Query } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentPrincipal, Permission, RequirePermission, type Principal } from '@platform/auth';
import { MainApiErrorBodyDto, type Paginated, ApiPaginatedResponse } from '@platform/contracts';
import { ParseIdPipe } from '@platform/runtime';
import { CreateUserDto, UpdateUserDto, UserDto, UsersListQueryDto } from './dto/user.dto';
import { UsersService } from './users.service';
import { Idempotent } from '../idempotency/idempotent.decorator';

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
  @ApiOperation({ summary: 'Create a user (422 AC004 when the e-mail is taken)' })
  @ApiCreatedResponse({ type: UserDto })
  async create(@Body() body: CreateUserDto): Promise<UserDto> {
    return UserDto.from(await this.users.create(body));
  }

  @Get()
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({
    summary: 'List users (filters: name, email, role_id, hidden, user_position_id), or a batch by ids',
  })
  @ApiPaginatedResponse(UserDto)
  list(@Query() query: UsersListQueryDto): Promise<Paginated<UserDto> | UserDto[]> {
    return this.users.list(query);
  }

  @Get(':id')
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({ summary: "A user of the caller's company" })
  @ApiOkResponse({ type: UserDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async get(@Param('id', ParseIdPipe) id: number): Promise<UserDto> {
    return UserDto.from(await this.users.get(id));
  }

  @Put(':id')
  @ApiOperation({ summary: 'Update a user (only the fields sent)' })
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOkResponse({ type: UserDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async update(@Param('id', ParseIdPipe) id: number, @Body() body: UpdateUserDto): Promise<UserDto> {
    return UserDto.from(await this.users.update(id, body));
  }

  @Delete(':id')
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOperation({ summary: 'Delete a user (soft delete; answers the deleted user)' })
  @ApiOkResponse({ type: UserDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async remove(@Param('id', ParseIdPipe) id: number): Promise<UserDto> {
    return UserDto.from(await this.users.remove(id));
  }
}
