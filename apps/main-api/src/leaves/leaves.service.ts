import { Injectable } from '@nestjs/common';
import { PrincipalContext } from '@platform/auth';
import { entityIdsOf, isCalendarDate, Role } from '@platform/contracts';
import { RequestValidationError } from '@platform/runtime';
import { AccessDeniedError } from '../errors/main-api.errors';
import { UserLeaveDto, type CreateUserLeaveDto, type UserLeavesQueryDto } from './dto/user-leave.dto';
import { LeavesRepository } from './leaves.repository';
import type { UserLeave } from './user-leave.entity';

const MANAGES_OTHERS = new Set<Role>([Role.CLevel, Role.Director, Role.ProjectManager]);

@Injectable()
export class LeavesService {
  constructor(
    private readonly leaves: LeavesRepository,
    private readonly principals: PrincipalContext,
  ) {}

  /**
   * Overlaps are refused by the `user_leaves_no_overlap` exclusion constraint (422 AC004), so two
   * concurrent requests cannot both be saved.
   */
  async create(body: CreateUserLeaveDto): Promise<UserLeave> {
    const principal = this.principals.get();
    if (!MANAGES_OTHERS.has(principal.roleId) && principal.userId !== body.userId) {
      throw new AccessDeniedError('Your role may only create your own leaves');
    }
    const start = new Date(body.start);
    const end = new Date(body.end);
    if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime()) || start >= end) {
      throw new RequestValidationError([
        { field: 'end', validation: 'afterStart', message: 'end must be a valid date-time after start' },
      ]);
    }
    await this.leaves.requireUser(body.userId);
    return this.leaves.create({
      userId: body.userId,
      leaveTypeId: body.leaveTypeId,
      start,
      end,
      allDay: body.allDay ?? false,
    });
  }

  /** Leaves touching the period [from 00:00Z, to 24:00Z), for the planner's capacity. */
  async list(query: UserLeavesQueryDto): Promise<UserLeaveDto[]> {
    const { from, to } = leavePeriod(query.from, query.to);
    const userIds = query.user_ids ? entityIdsOf(query.user_ids) : undefined;
    const leaves = await this.leaves.inPeriod(from, to, userIds);
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
