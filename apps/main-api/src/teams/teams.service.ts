import { Injectable } from '@nestjs/common';
import type { ListQueryDto, ListAnswer } from '@platform/contracts';
import { TeamDto, type CreateTeamDto, type UpdateTeamDto } from './dto/team.dto';
import type { Team } from './team.entity';
import { TeamsRepository } from './teams.repository';

@Injectable()
export class TeamsService {
  constructor(private readonly teams: TeamsRepository) {}

  async create(body: CreateTeamDto): Promise<Team> {
    const { id } = await this.teams.create({ name: body.name, description: body.description ?? null });
    return this.get(id);
  }

  list(query: ListQueryDto): Promise<ListAnswer<TeamDto>> {
    return this.teams.list(query, (team) => TeamDto.from(team));
  }

  get(id: number): Promise<Team> {
    return this.teams.get(id);
  }

  async update(id: number, body: UpdateTeamDto): Promise<Team> {
    const team = await this.get(id);
    Object.assign(team, {
      ...(body.name !== undefined && { name: body.name }),
      ...(body.description !== undefined && { description: body.description }),
    });
    await this.teams.save(team);
    return this.get(id);
  }

  async remove(id: number): Promise<Team> {
    const team = await this.get(id);
    await this.teams.softRemove(team);
    return { ...team, deletedAt: new Date() };
  }

  /** Adds users of the company; users already in the team stay once. */
  async addUsers(id: number, userIds: number[]): Promise<Team> {
    await this.get(id);
    await this.teams.addMembers(id, userIds);
    return this.get(id);
  }

  async removeUsers(id: number, userIds: number[]): Promise<Team> {
    await this.get(id);
    await this.teams.removeMembers(id, userIds);
    return this.get(id);
  }
}
