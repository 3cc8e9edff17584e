import { ForbiddenException, Injectable } from '@nestjs/common';
import { PrincipalContext } from '@platform/auth';
import { isCalendarDate, MAX_UNPAGED_RESULTS, Role } from '@platform/contracts';
import { TenantRepositoryFactory, type TenantRepository } from '@platform/database';
import { RequestValidationError } from '@platform/runtime';
import { User } from '../users/user.entity';
import { UserLeaveDto, type CreateUserLeaveDto, type UserLeavesQueryDto } from './dto/user-leave.dto';
import { UserLeave } from './user-leave.entity';

const MANAGES_OTHERS = new Set<Role>([Role.CLevel, Role.Director, Role.ProjectManager]);

@Injectable()
export class LeavesService {
  private readonly leaves: TenantRepository<UserLeave>;
  private readonly users: TenantRepository<User>;

  constructor(
    repositories: TenantRepositoryFactory,
    private readonly principals: PrincipalContext,
  ) {
    this.leaves = repositories.for(UserLeave);
    this.users = repositories.for(User);
  }

  /**
   * Overlaps are refused by the `user_leaves_no_overlap` exclusion constraint (422 AC004), so two
   * concurrent requests cannot both be saved.
   */
  async create(body: CreateUserLeaveDto): Promise<UserLeave> {
    const principal = this.principals.get();
    if (!MANAGES_OTHERS.has(principal.roleId) && principal.userId !== body.userId) {
      throw new ForbiddenException('Your role may only create your own leaves');
    }
    const start = new Date(body.start);
    const end = new Date(body.end);
    if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime()) || start >= end) {
      throw new RequestValidationError([
        { field: 'end', validation: 'afterStart', message: 'end must be a valid date-time after start' },
      ]);
    }
    await this.users.requireReference(body.userId, 'userId');
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
    const from = new Date(`${query.from}T00:00:00Z`);
    const to = new Date(`${query.to}T00:00:00Z`);
    if (!isCalendarDate(query.from) || !isCalendarDate(query.to) || from > to) {
      throw new RequestValidationError([
        {
          field: 'to',
          validation: 'notBeforeFrom',
          message: 'from and to must be real dates, from not after to',
        },
      ]);
    }
    to.setUTCDate(to.getUTCDate() + 1);
    const builder = this.leaves
      .queryBuilder('leave')
      .andWhere('leave.start < :to AND leave.end >= :from', { from, to })
      .orderBy('leave.user_id')
      .addOrderBy('leave.start')
      .take(MAX_UNPAGED_RESULTS);
    if (query.user_ids) {
      builder.andWhere('leave.user_id IN (:...userIds)', { userIds: query.user_ids.split(',').map(Number) });
    }
    return (await builder.getMany()).map((leave) => UserLeaveDto.from(leave));
  }
}
