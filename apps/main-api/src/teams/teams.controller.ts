import { Team } from './team.entity';
import { Body, Controller, Delete, Get, Param, Post, Put, Query } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Permission, RequirePermission } from '@platform/auth';
import { ListQueryDto, type ListAnswer, ApiPaginatedResponse, ApiFiltersExample } from '@platform/contracts';
import { ParseIdPipe, ConditionalRead, ConditionalResource } from '@platform/runtime';
import { MainApiErrorBodyDto } from '../errors/main-api-error-body.dto';
import { TeamsService } from './teams.service';
import { UserIdsDto } from '../users/dto/user-ids.dto';
import { CreateTeamDto, TeamDto, UpdateTeamDto } from './dto/team.dto';
import { Idempotent } from '../idempotency/idempotent.decorator';

@ApiTags('teams')
@Controller('teams')
export class TeamsController {
  constructor(private readonly teams: TeamsService) {}

  @Post()
  @Idempotent()
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOperation({ summary: 'Create a team' })
  @ApiCreatedResponse({ type: TeamDto })
  async create(@Body() body: CreateTeamDto): Promise<TeamDto> {
    return TeamDto.from(await this.teams.create(body));
  }

  @Get()
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({ summary: 'List teams; filters: name (contains); sort: name' })
  @ApiFiltersExample({ name: 'pod' })
  @ApiPaginatedResponse(TeamDto)
  list(@Query() query: ListQueryDto): Promise<ListAnswer<TeamDto>> {
    return this.teams.list(query);
  }

  @Get(':id')
  @ConditionalRead()
  @ApiOperation({ summary: 'One team by id, with its user ids' })
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOkResponse({ type: TeamDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async get(@Param('id', ParseIdPipe) id: number): Promise<TeamDto> {
    return TeamDto.from(await this.teams.get(id));
  }

  @Put(':id')
  @ConditionalResource(Team)
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOperation({ summary: 'Update a team (only the fields sent)' })
  @ApiOkResponse({ type: TeamDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async update(@Param('id', ParseIdPipe) id: number, @Body() body: UpdateTeamDto): Promise<TeamDto> {
    return TeamDto.from(await this.teams.update(id, body));
  }

  @Delete(':id')
  @ConditionalResource(Team)
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOperation({ summary: 'Delete a team (soft delete; answers the deleted team)' })
  @ApiOkResponse({ type: TeamDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async remove(@Param('id', ParseIdPipe) id: number): Promise<TeamDto> {
    return TeamDto.from(await this.teams.remove(id));
  }

  @Post(':id/users')
  @Idempotent()
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOperation({ summary: 'Add users of your company to the team (already members stay once)' })
  @ApiCreatedResponse({ type: TeamDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async addUsers(@Param('id', ParseIdPipe) id: number, @Body() body: UserIdsDto): Promise<TeamDto> {
    return TeamDto.from(await this.teams.addUsers(id, body.user_ids));
  }

  @Delete(':id/users')
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOperation({ summary: 'Remove users from the team' })
  @ApiOkResponse({ type: TeamDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async removeUsers(@Param('id', ParseIdPipe) id: number, @Body() body: UserIdsDto): Promise<TeamDto> {
    return TeamDto.from(await this.teams.removeUsers(id, body.user_ids));
  }
}
