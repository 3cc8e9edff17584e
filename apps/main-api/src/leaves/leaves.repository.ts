import { Injectable } from '@nestjs/common';
import { MAX_UNPAGED_RESULTS } from '@platform/contracts';
import { RequestTenantScope, type TenantRead, type TenantRepository } from '@platform/database';
import type { DeepPartial, SelectQueryBuilder } from 'typeorm';
import { User } from '../users/user.entity';
import { UserLeave } from './user-leave.entity';

/** Leaves of the request's company's users. */
@Injectable()
export class LeavesRepository {
  private readonly leaves: TenantRepository<UserLeave>;
  // The planner's look-up reads leaves on every report, built once (CompiledRead).
  private readonly leavesInPeriod: TenantRead<UserLeave, { from: Date; to: Date }>;
  private readonly usersLeavesInPeriod: TenantRead<UserLeave, { from: Date; to: Date; userIds: number[] }>;

  constructor(private readonly scope: RequestTenantScope) {
    this.leaves = scope.repository(UserLeave);
    this.leavesInPeriod = this.leaves.compile('leave', ['from', 'to'], inPeriod);
    this.usersLeavesInPeriod = this.leaves.compile('leave', ['from', 'to', 'userIds'], (query) =>
      inPeriod(query).andWhere('leave.user_id = ANY(:userIds)'),
    );
  }

  /** The user a body names (`userId`), or a 400 naming that field. */
  requireUser(id: number): Promise<User> {
    return this.scope.repository(User).requireReference(id, 'userId');
  }

  create(data: DeepPartial<UserLeave>): Promise<UserLeave> {
    return this.leaves.create(data);
  }

  /** Leaves touching [from, to), of every user or of these, by user and start. */
  inPeriod(from: Date, to: Date, userIds?: number[]): Promise<UserLeave[]> {
    return userIds
      ? this.usersLeavesInPeriod.many({ from, to, userIds })
      : this.leavesInPeriod.many({ from, to });
  }
}

/** Leaves touching [from, to), by user and start, at most MAX_UNPAGED_RESULTS. */
function inPeriod(query: SelectQueryBuilder<UserLeave>): SelectQueryBuilder<UserLeave> {
  return query
    .andWhere('leave.start < :to AND leave.end >= :from')
    .orderBy('leave.user_id', 'ASC')
    .addOrderBy('leave.start', 'ASC')
    .limit(MAX_UNPAGED_RESULTS);
}
