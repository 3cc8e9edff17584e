import { Injectable } from '@nestjs/common';
import { PrincipalContext } from '@platform/auth';
import { entityIdsOf, isCalendarDate, Role } from '@platform/contracts';
import { RequestValidationError } from '@platform/runtime';
import { AccessDeniedError } from '../errors/main-api.errors';
import { UserLeaveDto, type CreateUserLeaveDto, type UserLeavesQueryDto } from './dto/user-leave.dto';
import { LeavePolicyRepository } from './leave-policy.repository';
import { LeavesRepository } from './leaves.repository';
import type { UserLeave } from './user-leave.entity';

/** Roles that create leaves for anyone, and approve, reject and cancel them. */
export const MANAGES_LEAVES = new Set<Role>([Role.CLevel, Role.Director, Role.ProjectManager]);

/** The interface's leaves (`/user/leaves`), and the approved leaves the planner counts. */
@Injectable()
export class LeavesService {
  constructor(
    private readonly leaves: LeavesRepository,
    private readonly policy: LeavePolicyRepository,
    private readonly principals: PrincipalContext,
  ) {}

  /**
   * Overlaps are refused by the `user_leaves_no_overlap` exclusion constraint (422 AC004), so two
   * concurrent requests cannot both be saved. What it creates is approved, unless the company
   * requires approval and a person (roles 4-5) writes their own: then it is requested.
   */
  async create(body: CreateUserLeaveDto): Promise<UserLeave> {
    const principal = this.principals.get();
    const manages = MANAGES_LEAVES.has(principal.roleId);
    if (!manages && principal.userId !== body.userId) {
      throw new AccessDeniedError('Your role may only create your own leaves');
    }
    const start = new Date(body.start);
    const end = new Date(body.end);
    if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime()) || start >= end) {
      throw new RequestValidationError([
        { field: 'end', validation: 'afterStart', message: 'end must be a valid date-time after start' },
      ]);
    }
    await this.leaves.requireUser(body.userId, 'userId');
    const requested = !manages && (await this.policy.approvalRequired());
    return this.leaves.create({
      userId: body.userId,
      leaveTypeId: body.leaveTypeId,
      start,
      end,
      allDay: body.allDay ?? false,
      status: requested ? 'requested' : 'approved',
      // A manager's leave is their decision; a person's own, approved by the policy, is nobody's.
      ...(manages && { decidedByUserId: principal.userId ?? null, decidedAt: new Date() }),
    });
  }

  /**
   * Approved leaves touching the period [from 00:00Z, to 24:00Z), for the planner's capacity:
   * requested, rejected and cancelled ones do not count.
   */
  async list(query: UserLeavesQueryDto): Promise<UserLeaveDto[]> {
    const { from, to } = leavePeriod(query.from, query.to);
    const userIds = query.user_ids ? entityIdsOf(query.user_ids) : undefined;
    const leaves = await this.leaves.approvedInPeriod(from, to, userIds);
    return leaves.map((leave) => UserLeaveDto.from(leave));
  }
}

/**
 * The instants [from 00:00Z, to + 1 day 00:00Z) of a period of calendar days; a 400 naming `to`
 * unless both are real dates and from is not after to.
 */
export function leavePeriod(fromDay: string, toDay: string): { from: Date; to: Date } {
  const from = new Date(`${fromDay}T00:00:00Z`);
  const to = new Date(`${toDay}T00:00:00Z`);
  if (!isCalendarDate(fromDay) || !isCalendarDate(toDay) || from > to) {
    throw new RequestValidationError([
      {
        field: 'to',
        validation: 'notBeforeFrom',
        message: 'from and to must be real dates, from not after to',
      },
    ]);
  }
  to.setUTCDate(to.getUTCDate() + 1);
  return { from, to };
}
