import { Injectable } from '@nestjs/common';
import { FeatureRepository, RequestTenantScope } from '@platform/database';
import { ResourceNotFoundError } from '../errors/main-api.errors';
import { UserMemberships } from '../users/user-memberships.repository';
import { TeamMember } from './team-member.entity';
import { Team } from './team.entity';

/** Teams of the request's company, each read with its members. */
@Injectable()
export class TeamsRepository extends FeatureRepository<Team> {
  constructor(
    scope: RequestTenantScope,
    private readonly memberships: UserMemberships,
  ) {
    super(scope, {
      entity: Team,
      alias: 'team',
      filters: { name: { kind: 'text', column: 'name' } },
      sorts: { name: 'name' },
      notFound: (id) => new ResourceNotFoundError(`Team ${id}`),
      relations: { members: 'member' },
    });
  }

  /** Adds users of the company to the team; a user already in it stays once. */
  addMembers(teamId: number, userIds: number[]): Promise<void> {
    return this.memberships.add(TeamMember, 'teamId', teamId, userIds);
  }

  removeMembers(teamId: number, userIds: number[]): Promise<void> {
    return this.memberships.remove(TeamMember, 'teamId', teamId, userIds);
  }
}
