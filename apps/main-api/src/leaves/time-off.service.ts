import { Injectable } from '@nestjs/common';
import { PrincipalContext } from '@platform/auth';
import { entityIdsOf, type ListAnswer } from '@platform/contracts';
import { assertDayWindow, RequestValidationError } from '@platform/runtime';
import { AccessDeniedError } from '../errors/main-api.errors';
import { LeaveDto, type CreateLeaveDto, type LeavesListQueryDto, type RejectLeaveDto } from './dto/leave.dto';
import { leaveInstant } from './leave-times';
import { LeaveNotOpenError, LeaveNotRequestedError } from './leaves.errors';
import { LeavesRepository, type LeavesWindow } from './leaves.repository';
import { MANAGES_LEAVES } from './leaves.service';
import type { UserLeave } from './user-leave.entity';

/**
 * Time off with a status (issue 38, `/v1/leaves`): a person (roles 4-5) requests their own leave,
 * roles 1-3 write anyone's (approved unless they ask for `requested`) and approve, reject or cancel
 * it. Only approved leaves count for capacity. Overlaps among requested and approved leaves are
 * refused by the database's exclusion constraint (422 AC004), whatever runs at the same time.
 */
@Injectable()
export class TimeOffService {
  constructor(
    private readonly leaves: LeavesRepository,
    private readonly principals: PrincipalContext,
  ) {}

  async create(body: CreateLeaveDto): Promise<UserLeave> {
    const principal = this.principals.get();
    const manages = MANAGES_LEAVES.has(principal.roleId);
    if (!manages && principal.userId !== body.user_id) {
      throw new AccessDeniedError('Your role may only request your own leaves');
    }
    if (!manages && body.status === 'approved') {
      throw new AccessDeniedError(
        'Your role may only request leaves (status requested): a manager approves them',
      );
    }
    const user = await this.leaves.requireUser(body.user_id, 'user_id');
    const allDay = body.all_day ?? false;
    const context = { zone: user.timeZone, allDay };
    const start = leaveInstant('start', body.start, context);
    const end = leaveInstant('end', body.end, context);
    if (start >= end) {
      throw new RequestValidationError([
        { field: 'end', validation: 'afterStart', message: 'end must be after start' },
      ]);
    }
    const status = manages ? (body.status ?? 'approved') : 'requested';
    return this.leaves.create({
      userId: body.user_id,
      leaveTypeId: body.leave_type_id,
      start,
      end,
      allDay,
      note: body.note ?? null,
      status,
      ...(status === 'approved' && { decidedByUserId: principal.userId ?? null, decidedAt: new Date() }),
    });
  }

  list(query: LeavesListQueryDto): Promise<ListAnswer<LeaveDto>> {
    return this.leaves.listIn(query, windowOf(query), (leave) => LeaveDto.from(leave));
  }

  get(id: number): Promise<UserLeave> {
    return this.leaves.get(id);
  }

  approve(id: number): Promise<UserLeave> {
    return this.leaves.transition(id, (leave) => {
      if (leave.status !== 'requested') {
        throw new LeaveNotRequestedError(id, leave.status, 'approve');
      }
      return { status: 'approved', ...this.decision() };
    });
  }

  reject(id: number, body: RejectLeaveDto): Promise<UserLeave> {
    return this.leaves.transition(id, (leave) => {
      if (leave.status !== 'requested') {
        throw new LeaveNotRequestedError(id, leave.status, 'reject');
      }
      return {
        status: 'rejected',
        ...this.decision(),
        ...(typeof body.note === 'string' && { note: body.note }),
      };
    });
  }

  /** The person themself or roles 1-3, from requested or approved: its days are free again. */
  cancel(id: number): Promise<UserLeave> {
    const principal = this.principals.get();
    return this.leaves.transition(id, (leave) => {
      if (!MANAGES_LEAVES.has(principal.roleId) && leave.userId !== principal.userId) {
        throw new AccessDeniedError('Your role may only cancel your own leaves');
      }
      if (leave.status !== 'requested' && leave.status !== 'approved') {
        throw new LeaveNotOpenError(id, leave.status);
      }
      return { status: 'cancelled', ...this.decision() };
    });
  }

  private decision(): Pick<UserLeave, 'decidedByUserId' | 'decidedAt'> {
    return { decidedByUserId: this.principals.get().userId ?? null, decidedAt: new Date() };
  }
}

/** The list's window: days from and to (both included, UTC), people and status. */
function windowOf(query: LeavesListQueryDto): LeavesWindow {
  assertDayWindow(query.from, query.to);
  const to = query.to === undefined ? undefined : new Date(`${query.to}T00:00:00Z`);
  to?.setUTCDate(to.getUTCDate() + 1);
  return {
    userIds: query.user_ids === undefined ? undefined : entityIdsOf(query.user_ids),
    from: query.from === undefined ? undefined : new Date(`${query.from}T00:00:00Z`),
    to,
    status: query.status,
  };
}
