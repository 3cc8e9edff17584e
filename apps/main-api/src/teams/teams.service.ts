import { Injectable } from '@nestjs/common';
import type { ListQueryDto, Paginated } from '@platform/contracts';
import { TenantRepositoryFactory, type FilterDefinitions, type TenantRepository } from '@platform/database';
import { UserMemberships } from '../users/user-memberships';
import { TeamDto, type CreateTeamDto, type UpdateTeamDto } from './dto/team.dto';
import { TeamMember } from './team-member.entity';
import { Team } from './team.entity';
import { ResourceNotFoundError } from '../errors/main-api.errors';

const TEAM_FILTERS: FilterDefinitions = { name: { kind: 'text', column: 'name' } };

@Injectable()
export class TeamsService {
  private readonly teams: TenantRepository<Team>;

  constructor(
    repositories: TenantRepositoryFactory,
    private readonly memberships: UserMemberships,
  ) {
    this.teams = repositories.for(Team);
  }

  async create(body: CreateTeamDto): Promise<Team> {
    const { id } = await this.teams.create({ name: body.name, description: body.description ?? null });
    return this.get(id);
  }

  list(query: ListQueryDto): Promise<Paginated<TeamDto> | TeamDto[]> {
    return this.teams.paginate(this.withMembers(), 'team', query, TEAM_FILTERS, (team) => TeamDto.from(team));
  }

  async get(id: number): Promise<Team> {
    const team = await this.teams.run(() => this.withMembers().andWhere('team.id = :id', { id }).getOne());
    if (!team) {
      throw new ResourceNotFoundError(`Team ${id}`);
    }
    return team;
  }

  async update(id: number, body: UpdateTeamDto): Promise<Team> {
    const team = await this.get(id);
    Object.assign(team, {
      ...(body.name !== undefined && { name: body.name }),
      ...(body.description !== undefined && { description: body.description }),
    });
    await this.teams.save({ ...team, members: undefined });
    return this.get(id);
  }

  async remove(id: number): Promise<Team> {
    const team = await this.get(id);
    await this.teams.softRemove({ ...team, members: undefined });
    return { ...team, deletedAt: new Date() };
  }

  /** Adds users of the company; users already in the team stay once. */
  async addUsers(id: number, userIds: number[]): Promise<Team> {
    await this.get(id);
    // In the request's scope, so UserMemberships' own statements carry the company (row-level security).
    await this.teams.run(() => this.memberships.add(TeamMember, 'teamId', id, userIds));
    return this.get(id);
  }

  async removeUsers(id: number, userIds: number[]): Promise<Team> {
    await this.get(id);
    await this.teams.run(() => this.memberships.remove(TeamMember, 'teamId', id, userIds));
    return this.get(id);
  }

  private withMembers() {
    return this.teams.queryBuilder('team').leftJoinAndSelect('team.members', 'member');
  }
}
