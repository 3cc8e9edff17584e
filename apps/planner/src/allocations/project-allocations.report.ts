import type {
  MainApiHoliday,
  MainApiLabel,
  MainApiLeave,
  MainApiProject,
  MainApiSchedule,
  MainApiUser,
  MainApiWorkingTimeEntry,
} from '../main-api/main-api-records';
import { dayNumberOf, intersect, type DayRange } from './calendar';
import { roundHours, UserCalendar } from './capacity';
import type {
  AllocatedUserDto,
  AllocationOnAnotherProjectDto,
  LabelsOfCategoryDto,
  ProjectAllocationsDto,
  UserAllocationDto,
} from './dto/project-allocations.dto';

/** What main-api told us, fetched once for the whole project. */
export interface ProjectAllocationsContext {
  companyId: number;
  users: Map<number, MainApiUser>;
  weeks: Map<number, MainApiWorkingTimeEntry[]>;
  leaves: Map<number, MainApiLeave[]>;
  labels: Map<number, MainApiLabel>;
  projects: Map<number, MainApiProject>;
  timeZones?: Map<number, string>;
  holidays?: Map<number, MainApiHoliday[]>;
  schedules?: Map<number, MainApiSchedule[]>;
}

/** An allocation as getAllocations reads it (AllocationsService). */
export interface ReportedAllocation {
  id: string;
  userId: number;
  projectId: number;
  /** `YYYY-MM-DD`. */
  fromDate: string;
  toDate: string;
  allocatedHours: number;
  /** `YYYY-MM-DDTHH:mm:ss`, UTC. */
  createdAt: string;
}

interface OtherAllocation extends DayRange {
  projectId: number;
  hours: number;
  workingDays: number;
}

/** Builds the getAllocations answer (docs/spec/interfaces.md "Project allocations response") from data in hand. */
export class ProjectAllocationsReport {
  constructor(private readonly context: ProjectAllocationsContext) {}

  build(onProject: ReportedAllocation[], onOtherProjects: ReportedAllocation[]): ProjectAllocationsDto {
    const byUser = groupBy(onProject, (allocation) => allocation.userId);
    const othersByUser = groupBy(onOtherProjects, (allocation) => allocation.userId);
    const users = [...byUser.entries()].map(([userId, allocations]) =>
      this.user(userId, allocations, othersByUser.get(userId) ?? []),
    );
    users.sort(
      (a, b) =>
        a.firstName.localeCompare(b.firstName) || a.lastName.localeCompare(b.lastName) || a.userId - b.userId,
    );
    return { users };
  }

  private user(
    userId: number,
    allocations: ReportedAllocation[],
    others: ReportedAllocation[],
  ): AllocatedUserDto {
    const user = this.context.users.get(userId);
    const calendar = calendarOfUser(this.context, userId);
    // Each other allocation's days and working days, once per user rather than once per pair.
    // The fields are copied one by one: spreading `range` here made this map 8 times slower (V8's
    // generic object-clone path), the largest part of building a 500-allocation report.
    const elsewhere = others.map((other): OtherAllocation => {
      const range = rangeOf(other);
      return {
        from: range.from,
        to: range.to,
        projectId: other.projectId,
        hours: other.allocatedHours,
        workingDays: calendar.workingDays(range),
      };
    });
    return {
      userId,
      firstName: user?.first_name ?? '',
      lastName: user?.last_name ?? '',
      positionName: user?.position_name ?? '',
      categoryName: user?.category_name ?? '',
      categoryId: optionalId(user?.category_id),
      userPositionId: optionalId(user?.user_position_id),
      picture: user?.picture ?? '',
      companyId: this.context.companyId,
      hidden: user?.hidden ?? false,
      // A user main-api no longer knows at all is as gone as a deleted one.
      isDeleted: user?.is_deleted ?? true,
      labelsByCategory: this.labelsOf(user),
      createdAt: user ? user.created_at.replace(' ', 'T') : '',
      allocations: allocations.map((allocation) => this.allocation(allocation, elsewhere, calendar)),
      totalAllocatedHours: roundHours(
        allocations.reduce((sum, allocation) => sum + allocation.allocatedHours, 0),
      ),
    };
  }

  private allocation(
    allocation: ReportedAllocation,
    elsewhere: OtherAllocation[],
    calendar: UserCalendar,
  ): UserAllocationDto {
    const range = rangeOf(allocation);
    const hoursByProject = new Map<number, number>();
    for (const other of elsewhere) {
      if (intersect(other, range)) {
        const prorated = calendar.proratedHours(other, range, other.workingDays);
        hoursByProject.set(other.projectId, (hoursByProject.get(other.projectId) ?? 0) + prorated);
      }
    }
    const allocationUserAnotherProjects: AllocationOnAnotherProjectDto[] = [...hoursByProject.entries()]
      .sort(([a], [b]) => a - b)
      .map(([projectId, hours]) => {
        const project = this.context.projects.get(projectId);
        return {
          projectId,
          projectName: project?.name ?? '',
          clientName: project?.client?.name ?? '',
          allocatedHours: roundHours(hours),
        };
      });
    const capacity = calendar.capacity(range);
    const allocatedHours = allocation.allocatedHours;
    const hoursElsewhere = [...hoursByProject.values()].reduce((sum, hours) => sum + hours, 0);
    return {
      primaryKey: allocation.id,
      from: `${allocation.fromDate}T00:00:00`,
      to: `${allocation.toDate}T00:00:00`,
      allocatedHours,
      capacity: roundHours(capacity),
      availabilityLeft: roundHours(capacity - allocatedHours - hoursElsewhere),
      createdAt: allocation.createdAt,
      allocationUserAnotherProjects,
    };
  }

  /** main-api's labels have no category of their own: they are grouped by the model they label. */
  private labelsOf(user: MainApiUser | undefined): LabelsOfCategoryDto[] {
    const labels = (user?.labels ?? [])
      .map((id) => this.context.labels.get(id))
      .filter((label): label is MainApiLabel => label !== undefined)
      .map((label) => ({ id: label.id, name: label.name, color: label.color }));
    return labels.length > 0 ? [{ category: 'user', labels }] : [];
  }
}

/**
 * A user's calendar from main-api's working time (their weeks by first day, or one week for all
 * days), leaves, holidays and time zone.
 */
export function calendarFromMainApi(
  week: MainApiWorkingTimeEntry[] = [],
  leaves: MainApiLeave[] = [],
  more: { holidays?: MainApiHoliday[]; timeZone?: string; schedules?: MainApiSchedule[] } = {},
): UserCalendar {
  const schedules =
    more.schedules && more.schedules.length > 0
      ? more.schedules.map((schedule) => ({
          effectiveFrom: dayNumberOf(schedule.effective_from),
          week: workingWeekOf(schedule.entries),
        }))
      : [{ effectiveFrom: Number.NEGATIVE_INFINITY, week: workingWeekOf(week) }];
  return new UserCalendar({
    schedules,
    leaves: leaves.map((leave) => ({
      id: leave.id,
      start: new Date(leave.start),
      end: new Date(leave.end),
      allDay: leave.all_day,
    })),
    holidays: (more.holidays ?? []).map((holiday) => ({
      date: dayNumberOf(holiday.date),
      name: holiday.name,
      hoursOff: holiday.hours_off,
    })),
    timeZone: more.timeZone,
  });
}

function workingWeekOf(entries: readonly MainApiWorkingTimeEntry[]) {
  return entries.map((entry) => ({
    dayOfWeek: entry.day_of_week,
    dailyHours: entry.daily_hours,
    startAt: entry.start_at,
    endAt: entry.end_at,
  }));
}

/** The user's calendar from what one main-api look-up answered. */
export function calendarOfUser(
  lookups: Pick<ProjectAllocationsContext, 'weeks' | 'leaves' | 'timeZones' | 'holidays' | 'schedules'>,
  userId: number,
): UserCalendar {
  return calendarFromMainApi(lookups.weeks.get(userId), lookups.leaves.get(userId), {
    holidays: lookups.holidays?.get(userId),
    timeZone: lookups.timeZones?.get(userId),
    schedules: lookups.schedules?.get(userId),
  });
}

/** The response gives optional ids as strings, empty when absent. */
function optionalId(id: number | null | undefined): string {
  return id === null || id === undefined ? '' : String(id);
}

function rangeOf(allocation: ReportedAllocation): DayRange {
  return { from: dayNumberOf(allocation.fromDate), to: dayNumberOf(allocation.toDate) };
}

function groupBy<T, K>(items: T[], keyOf: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) {
      group.push(item);
    } else {
      groups.set(key, [item]);
    }
  }
  return groups;
}
