import { Injectable } from '@nestjs/common';
import { MAX_UNPAGED_RESULTS, type ListAnswer, type ListQueryDto } from '@platform/contracts';
import {
  FeatureRepository,
  preparedStatementName,
  RequestTenantScope,
  type FilterDefinitions,
} from '@platform/database';
import { ResourceNotFoundError } from '../errors/main-api.errors';
import { User } from '../users/user.entity';
import { UserLeave, LEAVE_STATUSES, type LeaveStatus } from './user-leave.entity';

/** A leave's own columns, under the entity's property names: what UserLeaveDto shows. */
export type UserLeaveRow = Omit<UserLeave, 'company' | 'user' | 'leaveType' | 'decidedBy'>;

/** What `GET /v1/leaves` narrows its list to, besides `filters`. */
export interface LeavesWindow {
  userIds?: number[];
  /** Leaves ending at or after this instant. */
  from?: Date;
  /** Leaves starting before this instant. */
  to?: Date;
  status?: LeaveStatus;
}

// The planner's look-up reads leaves on every report: fixed texts, prepared once per connection.
// Approved leaves touching [$2, $3), by user and start, at most MAX_UNPAGED_RESULTS: only approved
// leaves count for capacity.
const LEAVE_COLUMNS = `leave.id, leave.company_id AS "companyId", leave.user_id AS "userId",
       leave.leave_type_id AS "leaveTypeId", leave.start, leave.end, leave.all_day AS "allDay",
       leave.status, leave.decided_by_user_id AS "decidedByUserId", leave.decided_at AS "decidedAt",
       leave.note, leave.version, leave.created_at AS "createdAt", leave.updated_at AS "updatedAt"`;

const LEAVES_IN_PERIOD = `SELECT ${LEAVE_COLUMNS}
  FROM user_leaves leave
 WHERE leave.company_id = $1 AND leave.start < $3 AND leave.end >= $2 AND leave.status = 'approved'
 ORDER BY leave.user_id, leave.start
 LIMIT ${MAX_UNPAGED_RESULTS}`;
const LEAVES_IN_PERIOD_NAME = preparedStatementName(LEAVES_IN_PERIOD);

const USERS_LEAVES_IN_PERIOD = `SELECT ${LEAVE_COLUMNS}
  FROM user_leaves leave
 WHERE leave.company_id = $1 AND leave.start < $3 AND leave.end >= $2 AND leave.user_id = ANY($4)
   AND leave.status = 'approved'
 ORDER BY leave.user_id, leave.start
 LIMIT ${MAX_UNPAGED_RESULTS}`;
const USERS_LEAVES_IN_PERIOD_NAME = preparedStatementName(USERS_LEAVES_IN_PERIOD);

const LEAVE_FILTERS: FilterDefinitions = {
  user_id: { kind: 'integer', column: 'user_id' },
  leave_type_id: { kind: 'integer', column: 'leave_type_id' },
  status: { kind: 'enum', column: 'status', values: LEAVE_STATUSES },
  all_day: { kind: 'boolean', column: 'all_day' },
  start: { kind: 'timestamp', column: 'start' },
  end: { kind: 'timestamp', column: 'end' },
};
const LEAVE_SORTS = { start: 'start' } as const;

/** Leaves of the request's company's users. */
@Injectable()
export class LeavesRepository extends FeatureRepository<UserLeave> {
  constructor(scope: RequestTenantScope) {
    super(scope, {
      entity: UserLeave,
      alias: 'leave',
      filters: LEAVE_FILTERS,
      sorts: LEAVE_SORTS,
      notFound: (id) => new ResourceNotFoundError(`Leave ${id}`),
    });
  }

  /** The user a body names (`field`), or a 400 naming that field. */
  requireUser(id: number, field: string): Promise<User> {
    return this.scope.repository(User).requireReference(id, field);
  }

  /** The list (docs/spec/decisions.md §5) of the leaves in the window. */
  listIn<Dto>(
    list: ListQueryDto,
    window: LeavesWindow,
    toDto: (leave: UserLeave) => Dto,
  ): Promise<ListAnswer<Dto>> {
    const query = this.detailed();
    if (window.userIds) {
      query.andWhere('leave.userId IN (:...userIds)', { userIds: window.userIds });
    }
    if (window.from) {
      query.andWhere('leave.end >= :from', { from: window.from });
    }
    if (window.to) {
      query.andWhere('leave.start < :to', { to: window.to });
    }
    if (window.status) {
      query.andWhere('leave.status = :status', { status: window.status });
    }
    return this.rows.paginate(query, 'leave', list, LEAVE_FILTERS, toDto, LEAVE_SORTS);
  }

  /** Approved leaves touching [from, to), of every user or of these, by user and start. */
  approvedInPeriod(from: Date, to: Date, userIds?: number[]): Promise<UserLeaveRow[]> {
    const companyId = this.scope.companyId();
    return userIds
      ? this.scope.sql.select<UserLeaveRow>(
          USERS_LEAVES_IN_PERIOD,
          [companyId, from, to, userIds],
          USERS_LEAVES_IN_PERIOD_NAME,
        )
      : this.scope.sql.select<UserLeaveRow>(LEAVES_IN_PERIOD, [companyId, from, to], LEAVES_IN_PERIOD_NAME);
  }

  /**
   * Changes a leave's status in one transaction, under its row lock: `change` sees the leave as it
   * is now (two approvals of one leave are one after the other, and the second sees it approved),
   * and the request's `If-Match`, if about this leave, is checked under the same lock.
   */
  transition(id: number, change: (leave: UserLeave) => Partial<UserLeave>): Promise<UserLeave> {
    return this.scope.transaction(async (unit) => {
      const rows = unit.repository(UserLeave);
      const [leave] = await rows.find({ where: { id }, lock: { mode: 'pessimistic_write' } });
      if (!leave) {
        throw new ResourceNotFoundError(`Leave ${id}`);
      }
      await rows.assertVersionUnderLock(leave, `UserLeave ${id}`);
      return rows.save({ ...leave, ...change(leave) });
    });
  }
}
