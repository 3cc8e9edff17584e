import { Injectable } from '@nestjs/common';
import { PrincipalContext } from '@platform/auth';
import { isCalendarDate } from '@platform/contracts';
import { constraintViolationOf, PG_EXCLUSION_VIOLATION } from '@platform/database';
import type { CallerContext } from '@platform/main-api-client';
import type { MainApiUser } from '../main-api/main-api-records';
import { PlannerMainApi } from '../main-api/planner-main-api';
import {
  allocationNotFound,
  allocationOverlaps,
  invalidAllocation,
  projectNotFound,
  userHasNoWorkDays,
  userNotFound,
} from './allocation.errors';
import type { Allocation } from './allocation.entity';
import { AllocationsRepository } from './allocations.repository';
import { addCalendarMonths, dayNumberOf } from './calendar';
import type { AllocationDto, UpdateAllocationDto } from './dto/allocation.dto';
import type { ProjectAllocationsDto } from './dto/project-allocations.dto';
import { calendarFromMainApi, ProjectAllocationsReport } from './project-allocations.report';

/** What identifies a stored allocation (docs/spec/decisions.md §6): with the company, its user, project and days. */
interface AllocationIdentity {
  userId: number;
  projectId: number;
  from: string;
  to: string;
}

interface AllocationValues extends AllocationIdentity {
  allocatedHours: number;
  assignedByUserId: number;
}

const MAX_RANGE_MONTHS = 12;

/**
 * The allocation rules of docs/spec/interfaces.md (rules 1-7) and docs/spec/decisions.md §6, checked in the order a caller
 * expects: the body, then whether what it names exists, then work days, then overlap. Overlap is the
 * database's to decide (`allocations_no_overlap`), so concurrent requests cannot both win.
 */
@Injectable()
export class AllocationsService {
  constructor(
    private readonly allocations: AllocationsRepository,
    private readonly principals: PrincipalContext,
    private readonly mainApi: PlannerMainApi,
  ) {}

  async save(body: AllocationDto, caller: CallerContext): Promise<void> {
    const allocation = validAllocation(body, this.assignerOf(body));
    const user = await this.checkUserProjectAndWorkDays(allocation, caller);
    try {
      await this.allocations.create(columnsOf(allocation, user));
    } catch (error) {
      throw await this.asOverlap(error, allocation);
    }
  }

  /** Changes an allocation in place (its primaryKey stays), possibly onto another project (rule 5). */
  async update(body: UpdateAllocationDto, caller: CallerContext): Promise<void> {
    const stored = await this.requireStored(identityOf(body.oldAllocation));
    const next = validAllocation(body.newAllocation, this.assignerOf(body.newAllocation));
    const user = await this.checkUserProjectAndWorkDays(next, caller);
    let changed: number;
    try {
      // One statement, so one transaction: the row only changes if it is still the one we found,
      // and the exclusion constraint judges the new range against every other allocation.
      changed = await this.allocations.updateWhere(
        { ...whereIdentity(identityOf(body.oldAllocation)), id: stored.id },
        columnsOf(next, user),
      );
    } catch (error) {
      throw await this.asOverlap(error, next, stored.id);
    }
    if (changed === 0) {
      throw allocationNotFound(identityOf(body.oldAllocation));
    }
  }

  async remove(body: AllocationDto, caller: CallerContext): Promise<void> {
    const identity = identityOf(body);
    const projects = await this.mainApi.projectsByIds([identity.projectId], caller);
    if (!projects.has(identity.projectId)) {
      throw projectNotFound(identity.projectId);
    }
    if ((await this.allocations.deleteWhere(whereIdentity(identity))) === 0) {
      throw allocationNotFound(identity);
    }
  }

  /**
   * Two queries here, then one main-api call for everything the report names (users, projects,
   * working weeks, leaves, labels), whatever the number of users; then the report is computed in memory.
   */
  async projectAllocations(projectId: number, caller: CallerContext): Promise<ProjectAllocationsDto> {
    const [onProject, onOtherProjects] = await Promise.all([
      this.allocations.onProjectOf(projectId),
      this.allocations.onOtherProjectsOf(projectId),
    ]);
    if (onProject.length === 0) {
      if (!(await this.mainApi.projectsByIds([projectId], caller)).has(projectId)) {
        throw projectNotFound(projectId, 404);
      }
      return { users: [] };
    }
    const userIds = [...new Set(onProject.map((allocation) => allocation.userId))];
    const period = {
      from: onProject[0].fromDate, // ordered by fromDate
      to: onProject.reduce(
        (last, allocation) => (allocation.toDate > last ? allocation.toDate : last),
        onProject[0].toDate,
      ),
    };
    const lookups = await this.mainApi.lookups(
      {
        userIds,
        projectIds: [projectId, ...onOtherProjects.map((allocation) => allocation.projectId)],
        period,
      },
      caller,
    );
    if (!lookups.projects.has(projectId)) {
      throw projectNotFound(projectId, 404);
    }
    return new ProjectAllocationsReport({ companyId: this.allocations.companyId(), ...lookups }).build(
      onProject,
      onOtherProjects,
    );
  }

  /**
   * A user's token books in its own name whatever the body says, so a Project Manager cannot
   * record the CEO as the one who decided. An API client has no user of its own: it names one.
   */
  private assignerOf(body: AllocationDto): number {
    return this.principals.get().userId ?? body.assignedByUserId;
  }

  private async requireStored(identity: AllocationIdentity): Promise<Allocation> {
    const stored = await this.allocations.findOne(whereIdentity(identity));
    if (!stored) {
      throw allocationNotFound(identity);
    }
    return stored;
  }

  /**
   * Rules 3 and 4: the user (and whoever assigns) exist, the project exists, the user works in the
   * range. Answers the user as main-api knows them.
   */
  private async checkUserProjectAndWorkDays(
    allocation: AllocationValues,
    caller: CallerContext,
  ): Promise<MainApiUser> {
    const { users, projects, weeks, schedules } = await this.mainApi.lookups(
      { userIds: [allocation.userId, allocation.assignedByUserId], projectIds: [allocation.projectId] },
      caller,
    );
    const user = users.get(allocation.userId);
    if (!user || user.is_deleted) {
      throw userNotFound('userId', allocation.userId);
    }
    if (!users.has(allocation.assignedByUserId)) {
      throw userNotFound('assignedByUserId', allocation.assignedByUserId);
    }
    if (!projects.has(allocation.projectId)) {
      throw projectNotFound(allocation.projectId);
    }
    // Without a period the look-up answers every schedule of the user: the one in force on each day counts.
    const calendar = calendarFromMainApi(weeks.get(allocation.userId), [], {
      schedules: schedules.get(allocation.userId),
    });
    if (calendar.workingDays({ from: dayNumberOf(allocation.from), to: dayNumberOf(allocation.to) }) === 0) {
      throw userHasNoWorkDays(allocation.userId, allocation.from, allocation.to);
    }
    return user;
  }

  /** The exclusion constraint's refusal as AllocationAlreadyExistInDatesRangeError, naming the allocation in the way. */
  private async asOverlap(
    error: unknown,
    allocation: AllocationValues,
    replacing?: string,
  ): Promise<unknown> {
    const violation = constraintViolationOf(error);
    if (violation?.code !== PG_EXCLUSION_VIOLATION || violation.constraint !== 'allocations_no_overlap') {
      return error;
    }
    const existing = await this.allocations.firstOverlapping(allocation, replacing);
    return allocationOverlaps(
      allocation,
      existing ? { from: existing.fromDate, to: existing.toDate } : undefined,
    );
  }
}

function identityOf(body: AllocationDto): AllocationIdentity {
  for (const field of ['from', 'to'] as const) {
    if (!isCalendarDate(body[field])) {
      throw invalidAllocation(`${field} must be a real calendar date YYYY-MM-DD (${body[field]} is not)`);
    }
  }
  return { userId: body.userId, projectId: body.resource.entityId, from: body.from, to: body.to };
}

/** Rule 1 (and docs/spec/decisions.md §6) beyond the field types the DTO checks. */
function validAllocation(body: AllocationDto, assignedByUserId: number): AllocationValues {
  const identity = identityOf(body);
  if (identity.from >= identity.to) {
    throw invalidAllocation(`from (${identity.from}) must be before to (${identity.to})`);
  }
  const latest = addCalendarMonths(identity.from, MAX_RANGE_MONTHS);
  if (identity.to > latest) {
    throw invalidAllocation(
      `An allocation may span at most ${MAX_RANGE_MONTHS} months: to must be ${latest} or earlier`,
    );
  }
  return {
    ...identity,
    allocatedHours: body.allocatedHours,
    assignedByUserId,
  };
}

function whereIdentity(identity: AllocationIdentity) {
  return {
    userId: identity.userId,
    projectId: identity.projectId,
    fromDate: identity.from,
    toDate: identity.to,
  };
}

/**
 * The e-mail stored is main-api's for the user, never the body's: a caller could otherwise file
 * any address under any user (issue 33). The body's `email` stays accepted, and ignored.
 */
function columnsOf(allocation: AllocationValues, user: MainApiUser) {
  return {
    ...whereIdentity(allocation),
    // The interface books a total over the range (issue 37's total_hours); a v2 allocation it
    // changes becomes one, and its days are planned again from that total.
    mode: 'total_hours' as const,
    hoursPerDay: null,
    percent: null,
    allocatedHours: allocation.allocatedHours.toFixed(2),
    assignedByUserId: allocation.assignedByUserId,
    email: user.email,
  };
}
