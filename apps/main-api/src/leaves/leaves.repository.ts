import { Injectable } from '@nestjs/common';
import { MAX_UNPAGED_RESULTS } from '@platform/contracts';
import { preparedStatementName, RequestTenantScope, type TenantRepository } from '@platform/database';
import type { DeepPartial } from 'typeorm';
import { User } from '../users/user.entity';
import { UserLeave } from './user-leave.entity';

/** A leave's own columns, under the entity's property names: what UserLeaveDto shows. */
export type UserLeaveRow = Omit<UserLeave, 'company' | 'user' | 'leaveType'>;

// The planner's look-up reads leaves on every report: fixed texts, prepared once per connection.
// Leaves touching [$2, $3), by user and start, at most MAX_UNPAGED_RESULTS.
const LEAVE_COLUMNS = `leave.id, leave.company_id AS "companyId", leave.user_id AS "userId",
       leave.leave_type_id AS "leaveTypeId", leave.start, leave.end, leave.all_day AS "allDay",
       leave.created_at AS "createdAt", leave.updated_at AS "updatedAt"`;

const LEAVES_IN_PERIOD = `SELECT ${LEAVE_COLUMNS}
  FROM user_leaves leave
 WHERE leave.company_id = $1 AND leave.start < $3 AND leave.end >= $2
 ORDER BY leave.user_id, leave.start
 LIMIT ${MAX_UNPAGED_RESULTS}`;
const LEAVES_IN_PERIOD_NAME = preparedStatementName(LEAVES_IN_PERIOD);

const USERS_LEAVES_IN_PERIOD = `SELECT ${LEAVE_COLUMNS}
  FROM user_leaves leave
 WHERE leave.company_id = $1 AND leave.start < $3 AND leave.end >= $2 AND leave.user_id = ANY($4)
 ORDER BY leave.user_id, leave.start
 LIMIT ${MAX_UNPAGED_RESULTS}`;
const USERS_LEAVES_IN_PERIOD_NAME = preparedStatementName(USERS_LEAVES_IN_PERIOD);

/** Leaves of the request's company's users. */
@Injectable()
export class LeavesRepository {
  private readonly leaves: TenantRepository<UserLeave>;

  constructor(private readonly scope: RequestTenantScope) {
    this.leaves = scope.repository(UserLeave);
  }

  /** The user a body names (`userId`), or a 400 naming that field. */
  requireUser(id: number): Promise<User> {
    return this.scope.repository(User).requireReference(id, 'userId');
  }

  create(data: DeepPartial<UserLeave>): Promise<UserLeave> {
    return this.leaves.create(data);
  }

  /** Leaves touching [from, to), of every user or of these, by user and start. */
  inPeriod(from: Date, to: Date, userIds?: number[]): Promise<UserLeaveRow[]> {
    const companyId = this.scope.companyId();
    return userIds
      ? this.scope.sql.select<UserLeaveRow>(
          USERS_LEAVES_IN_PERIOD,
          [companyId, from, to, userIds],
          USERS_LEAVES_IN_PERIOD_NAME,
        )
      : this.scope.sql.select<UserLeaveRow>(LEAVES_IN_PERIOD, [companyId, from, to], LEAVES_IN_PERIOD_NAME);
  }
}
