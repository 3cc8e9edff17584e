import { Injectable } from '@nestjs/common';
import { PrincipalContext } from '@platform/auth';
import { isCalendarDate } from '@platform/contracts';
import { constraintViolationOf, PG_EXCLUSION_VIOLATION, PG_FOREIGN_KEY_VIOLATION } from '@platform/database';
import type { CallerContext } from '@platform/main-api-client';
import {
  AllocationError,
  invalidAllocation,
  projectNotFound,
  userNotFound,
} from '../allocations/allocation.errors';
import { Allocation, type AllocationStatus } from '../allocations/allocation.entity';
import { assertWritePrecondition, PreconditionFailedError } from '@platform/runtime';
import { dateOf, dayNumberOf } from '../allocations/calendar';
import { UserCalendar } from '../allocations/capacity';
import { AllocationErrorName } from '../errors/allocation-error-name';
import { PlannerMainApi, type MainApiLookups } from '../main-api/planner-main-api';
import { calendarOfUser } from '../allocations/project-allocations.report';
import type { FillPlaceholderAnswerDto, FillPlaceholderDto } from '../placeholders/dto/placeholder-fill.dto';
import { Placeholder } from '../placeholders/placeholder.entity';
import { placeholderNotFound } from '../placeholders/placeholder.errors';
import { DayPlanError, planDays, totalOf, type AllocationUnits, type PlannedDay } from './day-plan';
import {
  MAX_ALLOCATION_DAYS,
  type AllocationV2Dto,
  type AllocationV2PageDto,
  type CreateAllocationV2Dto,
  type ListAllocationsV2QueryDto,
  type OverAllocatedDayDto,
  type SplitAllocationAnswerDto,
  type SplitAllocationDto,
  type UpdateAllocationV2Dto,
} from './dto/allocation-v2.dto';
import {
  LedgerRepository,
  type AllocationColumns,
  type LedgerAllocation,
  type LedgerUnit,
} from './ledger.repository';
import type { CapacityPolicy } from './planner-settings.entity';
import { standardWeek } from './standard-week';

/** An allocation about to be written: its columns, days, and the calendar they were planned with. */
interface Planned {
  columns: AllocationColumns;
  days: PlannedDay[];
  calendar: UserCalendar;
  /** The days the calendar knows time off for. */
  period: { from: string; to: string };
}

/** A day over capacity by less than this is rounding, not overbooking. */
const EPSILON = 0.005;

const notFound = (id: string) =>
  new AllocationError(AllocationErrorName.AllocationNotFound, `No allocation ${id} in your company`, 404);

/**
 * The v2 allocations (issue 37): an allocation is a resource with its days, written under the lock of
 * the person it books, so a capacity check and its write are one step per person however many
 * planners book at once. Capacity comes from main-api in one batched look-up per request (the
 * person's working week and time off); the policy (reject, warn, allow) is the company's unless
 * the request names one. An allocation may book a placeholder instead (issue 39): its days are
 * planned on the standard week, with no capacity to weigh, under the placeholder's lock.
 */
@Injectable()
export class AllocationsV2Service {
  constructor(
    private readonly ledger: LedgerRepository,
    private readonly mainApi: PlannerMainApi,
    private readonly principals: PrincipalContext,
  ) {}

  async create(body: CreateAllocationV2Dto, caller: CallerContext): Promise<AllocationV2Dto> {
    const unitsGiven = unitsOf(body);
    if (!unitsGiven) {
      throw invalidAllocation('one of hours_per_day, total_hours or percent_of_capacity is required');
    }
    if ((body.user_id === undefined) === (body.placeholder_id === undefined)) {
      throw invalidAllocation('give exactly one of user_id (a person) and placeholder_id (a placeholder)');
    }
    // A user's token books in its own name; an API client names who decided (as the interface's save).
    const assignedBy = this.principals.get().userId ?? body.assigned_by_user_id;
    if (assignedBy === undefined) {
      throw invalidAllocation(
        "assigned_by_user_id is required with an API client's token: who made the booking",
      );
    }
    const status = body.status ?? 'confirmed';
    const planned = await this.plan(
      {
        user_id: body.user_id ?? null,
        placeholder_id: body.placeholder_id ?? null,
        project_id: body.project_id,
        from: body.from,
        to: body.to,
        status,
        ...unitColumns(unitsGiven),
        total_hours: 0,
        note: body.note ?? null,
        billable: body.billable ?? true,
        task_id: body.task_id ?? null,
        assigned_by_user_id: assignedBy,
        ...confirmation(status, assignedBy),
      },
      unitsGiven,
      pinnedOf(body.days),
      caller,
    );
    const { id, over } = await this.write(planned, body.capacity_policy);
    return this.answer(id, over);
  }

  async get(id: string, caller: CallerContext): Promise<AllocationV2Dto> {
    const stored = await this.ledger.get(id);
    if (!stored) {
      throw notFound(id);
    }
    const {
      allocations: [allocation],
      days,
    } = await this.withDays([stored], caller);
    return { ...(allocation ?? stored), days: days.get(id) ?? [] };
  }

  async list(query: ListAllocationsV2QueryDto, caller: CallerContext): Promise<AllocationV2PageDto> {
    for (const field of ['from', 'to'] as const) {
      const value = query[field];
      if (value !== undefined && !isCalendarDate(value)) {
        throw invalidAllocation(`${field} must be a real calendar date YYYY-MM-DD (${value} is not)`);
      }
    }
    if (query.from && query.to && query.from > query.to) {
      throw invalidAllocation(`from (${query.from}) must be on or before to (${query.to})`);
    }
    const rows = await this.ledger.list({
      userIds: query.user_ids?.split(',').map(Number),
      placeholderIds: query.placeholder_ids?.split(','),
      projectIds: query.project_ids?.split(',').map(Number),
      status: query.status,
      from: query.from,
      to: query.to,
      after: query.cursor === undefined ? undefined : cursorOf(query.cursor),
      limit: query.limit,
    });
    // Planned as they are now even without include=days: their totals follow the schedule too.
    const { allocations: page, days } = await this.withDays(rows.slice(0, query.limit), caller);
    const last = page.at(-1);
    return {
      data: query.include === 'days' ? page.map((row) => ({ ...row, days: days.get(row.id) ?? [] })) : page,
      next_cursor:
        rows.length > query.limit && last
          ? Buffer.from(`${last.from}|${last.id}`).toString('base64url')
          : null,
      has_more: rows.length > query.limit,
    };
  }

  async update(id: string, body: UpdateAllocationV2Dto, caller: CallerContext): Promise<AllocationV2Dto> {
    const stored = await this.ledger.get(id);
    if (!stored) {
      throw notFound(id);
    }
    // Who an allocation books changes within its kind; a placeholder's is given to a person by
    // filling the placeholder (its own route), which also weighs the person's capacity.
    if (stored.placeholder_id !== null && body.user_id !== undefined) {
      throw invalidAllocation(
        'user_id: this allocation books a placeholder; it goes to a person by filling the placeholder, not by changing the allocation',
      );
    }
    if (stored.user_id !== null && body.placeholder_id !== undefined) {
      throw invalidAllocation(
        'placeholder_id: this allocation books a person; book the placeholder with a new allocation instead',
      );
    }
    const unitsGiven = unitsOf(body);
    const units = unitsGiven ?? storedUnits(stored);
    const status = body.status ?? stored.status;
    // Who confirms: the token's user, or the user an API client names (as on a booking).
    const actor = this.principals.get().userId ?? body.assigned_by_user_id;
    if (status !== stored.status && status === 'confirmed' && actor === undefined) {
      throw invalidAllocation(
        "assigned_by_user_id is required to confirm with an API client's token: who confirmed",
      );
    }
    const confirmed =
      status === stored.status
        ? { confirmed_by_user_id: stored.confirmed_by_user_id, confirmed_at: dateOrNull(stored.confirmed_at) }
        : confirmation(status, actor ?? null);
    const range = { from: body.from ?? stored.from, to: body.to ?? stored.to };
    // Pinned days stay unless the body gives days (an empty list unpins them all) or moves the range.
    const pinned =
      body.days !== undefined
        ? pinnedOf(body.days)
        : new Map(
            ((await this.ledger.daysOf([id])).get(id) ?? [])
              .filter((day) => day.pinned && day.date >= range.from && day.date <= range.to)
              .map((day) => [day.date, day.hours]),
          );
    const planned = await this.plan(
      {
        user_id: body.user_id ?? stored.user_id,
        placeholder_id: body.placeholder_id ?? stored.placeholder_id,
        project_id: body.project_id ?? stored.project_id,
        ...range,
        status,
        ...unitColumns(units),
        total_hours: 0,
        note: body.note === undefined ? stored.note : body.note,
        billable: body.billable ?? stored.billable,
        task_id: body.task_id === undefined ? stored.task_id : body.task_id,
        assigned_by_user_id: stored.assigned_by_user_id,
        ...confirmed,
      },
      units,
      pinned,
      caller,
    );
    const { over } = await this.write(planned, body.capacity_policy, { id, version: stored.version, stored });
    return this.answer(id, over);
  }

  async remove(id: string): Promise<void> {
    const stored = await this.ledger.get(id);
    if (!stored) {
      throw notFound(id);
    }
    await this.ledger.transaction(async (unit) => {
      await lockAssignees(unit, [stored]);
      await this.lockVersion(unit, id, stored.version);
      await unit.delete(id);
    });
  }

  /**
   * Cuts the allocation in two at `date` (the first day of the second part): the first keeps its id,
   * the second is new; each keeps the days (and hours) it had, as pinned days only where they were.
   */
  async split(
    id: string,
    body: SplitAllocationDto,
    caller: CallerContext,
  ): Promise<SplitAllocationAnswerDto> {
    const found = await this.ledger.get(id);
    if (!found) {
      throw notFound(id);
    }
    // Its days as they are now (planned again first if they follow the schedule): what each part keeps.
    const {
      allocations: [stored = found],
    } = await this.withDays([found], caller);
    if (!isCalendarDate(body.date) || body.date <= stored.from || body.date > stored.to) {
      throw invalidAllocation(
        `date must be a day after from (${stored.from}) and on or before to (${stored.to}): the first day of the second part`,
      );
    }
    const lastOfFirst = dateOf(dayNumberOf(body.date) - 1);
    const secondId = await this.ledger.transaction(async (unit) => {
      await lockAssignees(unit, [stored]);
      await this.lockVersion(unit, id, stored.version);
      const days = (await unit.daysOf([id])).get(id) ?? [];
      const first = days.filter((day) => day.date < body.date);
      const second = days.filter((day) => day.date >= body.date);
      // Split as they are: each part books exactly the hours it had, as a total over its days.
      const asTotal = (part: PlannedDay[], range: { from: string; to: string }) => ({
        ...stored,
        ...range,
        mode: stored.mode,
        total_hours: totalOf(part),
        percent_of_capacity: stored.percent_of_capacity,
        hours_per_day: stored.hours_per_day,
        confirmed_at: dateOrNull(stored.confirmed_at),
      });
      await unit.update(id, asTotal(first, { from: stored.from, to: lastOfFirst }));
      await unit.writeDays(stored, first);
      const created = await unit.insert(asTotal(second, { from: body.date, to: stored.to }));
      await unit.writeDays({ ...stored, id: created }, second);
      return created;
    });
    return { first: await this.planned(id), second: await this.planned(secondId) };
  }

  /**
   * Fills the placeholder (issue 39): its allocations, or their parts inside [from, to], go to the
   * person in one transaction under the person's lock then the placeholder's. An allocation inside
   * the window moves whole (its id, an `updated` event); one crossing a bound is split: the
   * placeholder keeps the original id and the days outside, the moved part is new (a window inside
   * one allocation also makes a new placeholder part after it). Moved days are planned again on
   * the person's calendar in their mode (hours per day on each working day; a total, the moved
   * days' sum, spread over capacity), pinned days kept; then weighed as any v2 write.
   */
  async fill(
    placeholderId: string,
    body: FillPlaceholderDto,
    caller: CallerContext,
  ): Promise<FillPlaceholderAnswerDto> {
    if ((body.from === undefined) !== (body.to === undefined)) {
      throw invalidAllocation('give both from and to (a window to move), or neither (move every booking)');
    }
    const window =
      body.from !== undefined && body.to !== undefined ? { from: body.from, to: body.to } : undefined;
    if (window && window.from > window.to) {
      throw invalidAllocation(`from (${window.from}) must be on or before to (${window.to})`);
    }
    if (!(await this.ledger.placeholderExists(placeholderId))) {
      throw placeholderNotFound(placeholderId);
    }
    const before = await this.ledger.placeholderAllocations(placeholderId, window);
    if (before.length === 0) {
      throw nothingToAssign(placeholderId, window);
    }
    // The person's calendar over the moved days and the allocations of theirs a write plans again.
    const moving = { from: clipped(before, window).from, to: clipped(before, window).to };
    const replanned = await this.ledger.replannedSpan(body.user_id, moving.from, moving.to);
    const period = {
      from: replanned && replanned.from < moving.from ? replanned.from : moving.from,
      to: replanned && replanned.to > moving.to ? replanned.to : moving.to,
    };
    const lookups = await this.mainApi.lookups({ userIds: [body.user_id], period }, caller);
    const user = lookups.users.get(body.user_id);
    if (!user || user.is_deleted) {
      throw userNotFound('user_id', body.user_id);
    }
    const calendar = calendarOfUser(lookups, body.user_id);
    const settings = await this.ledger.settings();
    const policy = body.capacity_policy ?? settings.capacity_policy;
    const person = body.user_id;
    try {
      const result = await this.ledger.transaction(async (unit) => {
        await unit.lockPeople([person]);
        await unit.lockPlaceholders([placeholderId]);
        const version = await unit.placeholderVersion(placeholderId);
        if (version === undefined) {
          throw placeholderNotFound(placeholderId);
        }
        assertWritePrecondition(Placeholder, placeholderId, version, 'placeholder');
        const allocations = await unit.placeholderAllocations(placeholderId, window);
        if (allocations.length === 0) {
          throw nothingToAssign(placeholderId, window);
        }
        const span = clipped(allocations, window);
        if (span.from < period.from || span.to > period.to) {
          // Booked further since the calendar was asked for: the caller tries again.
          throw new PreconditionFailedError('placeholder');
        }
        await replan(unit, await unit.replanned(person, period.from, period.to), () => calendar, period);
        const stored = await unit.daysOf(allocations.map((allocation) => allocation.id));
        const week = standardWeek();
        const moved: string[] = [];
        const created: string[] = [];
        const written: { id: string; columns: AllocationColumns; days: PlannedDay[] }[] = [];
        for (const allocation of allocations) {
          const days = stored.get(allocation.id) ?? planStored(allocation, week);
          const move = await moveToPerson(unit, allocation, days, { window, person, calendar });
          moved.push(...move.moved);
          created.push(...move.created);
          written.push(move.written);
        }
        // Weighed once the whole fill is written: each day over capacity once.
        const over = new Map<string, { id: string; project_id: number; day: OverAllocatedDayDto }>();
        for (const { id, columns, days } of written) {
          for (const day of await overAllocated(
            unit,
            { ...columns, user_id: person },
            days,
            calendar,
            settings.count_tentative,
          )) {
            if (!over.has(day.date)) {
              over.set(day.date, { id, project_id: columns.project_id, day });
            }
          }
        }
        const overDays = [...over.values()]
          .map((entry) => entry.day)
          .sort((a, b) => (a.date < b.date ? -1 : 1));
        if (policy === 'reject' && overDays.length > 0) {
          throw new AllocationError(
            'OverCapacityError',
            `Filling placeholder ${placeholderId} puts ${overDays.length} day(s) of user ${person} over capacity ` +
              `(${overDays.map((day) => day.date).join(', ')}); under the reject policy nothing was moved`,
            422,
            { over_allocated_days: overDays },
          );
        }
        if (policy === 'warn') {
          for (const { id, project_id, day } of [...over.values()]) {
            await unit.recordOverAllocated({ id, project_id }, [
              { user_id: person, date: day.date, capacity: day.capacity, booked: day.booked },
            ]);
          }
        }
        return { moved, created, ids: written.map((entry) => entry.id), over: overDays };
      });
      const [rows, days] = await Promise.all([this.ledger.byIds(result.ids), this.ledger.daysOf(result.ids)]);
      const byId = new Map(rows.map((row) => [row.id, row]));
      return {
        moved: result.moved,
        created: result.created,
        allocations: result.ids.flatMap((id) => {
          const row = byId.get(id);
          return row ? [{ ...row, days: days.get(id) ?? [] }] : [];
        }),
        over_allocated_days: result.over,
      };
    } catch (error) {
      const violation = constraintViolationOf(error);
      if (violation?.code === PG_EXCLUSION_VIOLATION && violation.constraint === 'allocations_no_overlap') {
        throw new AllocationError(
          AllocationErrorName.AllocationAlreadyExistInDatesRange,
          `User ${person} is already allocated within these dates on a project the placeholder books: nothing was moved`,
          409,
        );
      }
      throw error;
    }
  }

  /**
   * Checks what the allocation names with main-api (the person, the project), and plans its days
   * with the person's calendar over its range; a placeholder's on the standard week (it has no
   * calendar, so main-api is asked only about the project and who booked).
   */
  private async plan(
    columns: AllocationColumns,
    units: AllocationUnits,
    pinned: Map<string, number>,
    caller: CallerContext,
  ): Promise<Planned> {
    for (const field of ['from', 'to'] as const) {
      if (!isCalendarDate(columns[field])) {
        throw invalidAllocation(
          `${field} must be a real calendar date YYYY-MM-DD (${columns[field]} is not)`,
        );
      }
    }
    if (columns.from > columns.to) {
      throw invalidAllocation(`from (${columns.from}) must be on or before to (${columns.to})`);
    }
    if (dayNumberOf(columns.to) - dayNumberOf(columns.from) + 1 > MAX_ALLOCATION_DAYS) {
      throw invalidAllocation(`an allocation spans at most ${MAX_ALLOCATION_DAYS} days`);
    }
    if (columns.placeholder_id !== null) {
      return this.planPlaceholder(
        { ...columns, placeholder_id: columns.placeholder_id },
        units,
        pinned,
        caller,
      );
    }
    if (columns.user_id === null) {
      throw invalidAllocation('give exactly one of user_id (a person) and placeholder_id (a placeholder)');
    }
    // The calendar covers the person's allocations this write plans again, whole.
    const replanned = await this.ledger.replannedSpan(columns.user_id, columns.from, columns.to);
    const period = {
      from: replanned && replanned.from < columns.from ? replanned.from : columns.from,
      to: replanned && replanned.to > columns.to ? replanned.to : columns.to,
    };
    const lookups = await this.mainApi.lookups(
      {
        userIds: [
          columns.user_id,
          columns.assigned_by_user_id,
          ...(columns.confirmed_by_user_id === null ? [] : [columns.confirmed_by_user_id]),
        ],
        projectIds: [columns.project_id],
        taskIds: columns.task_id === null ? [] : [columns.task_id],
        period,
      },
      caller,
    );
    const user = lookups.users.get(columns.user_id);
    if (!user || user.is_deleted) {
      throw userNotFound('user_id', columns.user_id);
    }
    checkNamed(columns, lookups);
    const calendar = calendarOfUser(lookups, columns.user_id);
    const days = planned(columns, units, calendar, pinned);
    return { columns: { ...columns, total_hours: totalOf(days) }, days, calendar, period };
  }

  /**
   * A placeholder's allocation: the placeholder is the company's, main-api knows the project (and
   * task) and who booked, and the days fall on the standard week. No percent of capacity: a
   * placeholder has none.
   */
  private async planPlaceholder(
    columns: AllocationColumns & { placeholder_id: string },
    units: AllocationUnits,
    pinned: Map<string, number>,
    caller: CallerContext,
  ): Promise<Planned> {
    if (units.mode === 'percent_of_capacity') {
      throw invalidAllocation(
        'percent_of_capacity: a placeholder has no capacity to take a percent of; book hours_per_day or total_hours',
      );
    }
    if (!(await this.ledger.placeholderExists(columns.placeholder_id))) {
      throw placeholderNotFound(columns.placeholder_id, 400, 'placeholder_id');
    }
    const lookups = await this.mainApi.lookups(
      {
        userIds: [
          columns.assigned_by_user_id,
          ...(columns.confirmed_by_user_id === null ? [] : [columns.confirmed_by_user_id]),
        ],
        projectIds: [columns.project_id],
        taskIds: columns.task_id === null ? [] : [columns.task_id],
      },
      caller,
    );
    checkNamed(columns, lookups);
    const calendar = standardWeek();
    const days = planned(columns, units, calendar, pinned);
    return {
      columns: { ...columns, total_hours: totalOf(days) },
      days,
      calendar,
      period: { from: columns.from, to: columns.to },
    };
  }

  /**
   * One transaction under the person's lock (both people's when it moves): plans their allocations
   * that have no days yet, refuses an overlap on the project, writes the allocation and its days,
   * then weighs the person's days against capacity; under `reject`, a day over capacity undoes it
   * all (422); under `warn`, each such day is an `availability.over_allocated` event. A
   * placeholder's allocation is written under the placeholder's lock, with no capacity to weigh.
   */
  private async write(
    planned: Planned,
    policyOverride: CapacityPolicy | undefined,
    existing?: { id: string; version: number; stored: LedgerAllocation },
  ): Promise<{ id: string; over: OverAllocatedDayDto[] }> {
    const settings = await this.ledger.settings();
    const policy = policyOverride ?? settings.capacity_policy;
    const { columns, days, calendar, period } = planned;
    try {
      return await this.ledger.transaction(async (unit) => {
        await lockAssignees(unit, existing ? [columns, existing.stored] : [columns]);
        if (existing) {
          await this.lockVersion(unit, existing.id, existing.version);
        }
        if (columns.user_id !== null) {
          await replan(
            unit,
            await unit.replanned(columns.user_id, columns.from, columns.to, existing?.id),
            () => calendar,
            period,
          );
        }
        const overlapping = await unit.firstOverlapping(columns, columns.project_id, columns, existing?.id);
        if (overlapping) {
          throw overlap(columns, overlapping);
        }
        const id = existing ? existing.id : await unit.insert(columns);
        if (existing) {
          await unit.update(id, columns);
        }
        await unit.writeDays({ id, ...columns }, days);
        const person = columns.user_id;
        if (person === null) {
          // A placeholder has no capacity limit: nothing to weigh, warn of or refuse.
          return { id, over: [] };
        }
        const over = await overAllocated(
          unit,
          { ...columns, user_id: person },
          days,
          calendar,
          settings.count_tentative,
        );
        if (policy === 'warn' && over.length > 0) {
          await unit.recordOverAllocated(
            { id, project_id: columns.project_id },
            over.map(({ date, capacity, booked }) => ({ user_id: person, date, capacity, booked })),
          );
        }
        if (policy === 'reject' && over.length > 0) {
          throw new AllocationError(
            'OverCapacityError',
            `This booking puts ${over.length} day(s) of user ${person} over capacity ` +
              `(${over.map((day) => day.date).join(', ')}); under the reject policy nothing was written`,
            422,
            { over_allocated_days: over },
          );
        }
        return { id, over };
      });
    } catch (error) {
      const violation = constraintViolationOf(error);
      if (
        violation?.code === PG_EXCLUSION_VIOLATION &&
        (violation.constraint === 'allocations_no_overlap' ||
          violation.constraint === 'allocations_placeholder_no_overlap')
      ) {
        throw overlap(columns, undefined);
      }
      // The placeholder was deleted between the check and the write.
      if (
        violation?.code === PG_FOREIGN_KEY_VIOLATION &&
        violation.constraint === 'allocations_placeholder_fkey' &&
        columns.placeholder_id !== null
      ) {
        throw placeholderNotFound(columns.placeholder_id, 400, 'placeholder_id');
      }
      throw error;
    }
  }

  /**
   * The row under its lock, checked against the request's `If-Match` (required on every v2 write)
   * and against the version this write was planned from: 412 either way when it changed since.
   */
  private async lockVersion(unit: LedgerUnit, id: string, version: number): Promise<void> {
    const row = await unit.lock(id);
    if (!row) {
      throw notFound(id);
    }
    if (row.version !== version) {
      throw new PreconditionFailedError('allocation');
    }
    assertWritePrecondition(Allocation, id, row.version, 'allocation');
  }

  /**
   * These allocations as the ledger has them now, with their days: those it plans again (`replanned`:
   * no days yet, or booked relative to each day's capacity) are planned against the calendar in
   * force first, as a write would plan them: one main-api look-up for all their people, then under
   * those people's locks. Only what changed is written (a new version and total, an `updated`
   * event); a read that finds nothing to plan again makes no call. Placeholders' are planned on the
   * standard week, with no look-up, under their placeholders' locks.
   */
  private async withDays(
    allocations: readonly LedgerAllocation[],
    caller: CallerContext,
  ): Promise<{ allocations: LedgerAllocation[]; days: Map<string, PlannedDay[]> }> {
    const days = await this.ledger.daysOf(allocations.map((allocation) => allocation.id));
    const candidates = allocations.filter(
      (allocation) => !days.has(allocation.id) || allocation.mode !== 'total_hours',
    );
    if (candidates.length === 0) {
      return { allocations: [...allocations], days };
    }
    const userIds = [...new Set(candidates.flatMap((allocation) => allocation.user_id ?? []))];
    const period = {
      from: candidates.map((allocation) => allocation.from).reduce((a, b) => (a < b ? a : b)),
      to: candidates.map((allocation) => allocation.to).reduce((a, b) => (a > b ? a : b)),
    };
    const lookups = userIds.length > 0 ? await this.mainApi.lookups({ userIds, period }, caller) : undefined;
    const week = standardWeek();
    const calendarOf = (allocation: LedgerAllocation) =>
      allocation.user_id === null || !lookups ? week : calendarOfUser(lookups, allocation.user_id);
    // Weighed first without a lock: most reads find the days as the calendar plans them.
    const stale = candidates.filter((allocation) =>
      replannedDays(allocation, days.get(allocation.id), calendarOf(allocation), period),
    );
    if (stale.length === 0) {
      return { allocations: [...allocations], days };
    }
    const changed = await this.ledger.transaction(async (unit) => {
      await lockAssignees(unit, stale);
      return replan(
        unit,
        await unit.replannedAmong(stale.map((allocation) => allocation.id)),
        calendarOf,
        period,
      );
    }, 'replan');
    if (changed.length === 0) {
      return { allocations: [...allocations], days };
    }
    const [rows, planned] = await Promise.all([this.ledger.byIds(changed), this.ledger.daysOf(changed)]);
    const fresh = new Map(rows.map((row) => [row.id, row]));
    for (const [id, list] of planned) {
      days.set(id, list);
    }
    return { allocations: allocations.map((allocation) => fresh.get(allocation.id) ?? allocation), days };
  }

  /**
   * Plans again, as a v2 read of them would, these people's allocations overlapping the range whose
   * days follow the calendar (`replanned`): afterwards their stored days are the plan, for a read of
   * many people's days (availability). No main-api call when there are none.
   */
  async planPeople(
    userIds: readonly number[],
    from: string,
    to: string,
    caller: CallerContext,
  ): Promise<void> {
    const allocations = await this.ledger.replannedOverlapping(userIds, from, to);
    if (allocations.length > 0) {
      await this.withDays(allocations, caller);
    }
  }

  /**
   * Plans again, as a v2 read of them would, these projects' allocations overlapping the range whose
   * days follow the calendar (`replanned`): afterwards their stored days are the plan, for a read of
   * many projects' days (planned hours). No main-api call when there are none.
   */
  async planProjects(
    projectIds: readonly number[],
    from: string,
    to: string,
    caller: CallerContext,
  ): Promise<void> {
    const allocations = await this.ledger.replannedOnProjects(projectIds, from, to);
    if (allocations.length > 0) {
      await this.withDays(allocations, caller);
    }
  }

  /** The allocation with its days as just planned (by the write that answers it). */
  private async planned(id: string): Promise<AllocationV2Dto> {
    const allocation = await this.ledger.get(id);
    if (!allocation) {
      throw notFound(id);
    }
    const days = await this.ledger.daysOf([id]);
    return { ...allocation, days: days.get(id) ?? [] };
  }

  private async answer(id: string, over: OverAllocatedDayDto[]): Promise<AllocationV2Dto> {
    return { ...(await this.planned(id)), over_allocated_days: over };
  }
}

/**
 * The locks of whom these allocations book: people's, then placeholders' (each kind in its key
 * order), so that two writers of the same assignees cannot deadlock.
 */
async function lockAssignees(
  unit: LedgerUnit,
  allocations: readonly { user_id: number | null; placeholder_id: string | null }[],
): Promise<void> {
  await unit.lockPeople(allocations.flatMap((allocation) => allocation.user_id ?? []));
  await unit.lockPlaceholders(allocations.flatMap((allocation) => allocation.placeholder_id ?? []));
}

/** What an allocation names beside whom it books: who booked and confirmed, the project, the task. */
function checkNamed(
  columns: AllocationColumns,
  { users, projects, taskProjects }: Pick<MainApiLookups, 'users' | 'projects' | 'taskProjects'>,
): void {
  if (!users.has(columns.assigned_by_user_id)) {
    throw userNotFound('assigned_by_user_id', columns.assigned_by_user_id);
  }
  if (columns.confirmed_by_user_id !== null && !users.has(columns.confirmed_by_user_id)) {
    throw userNotFound('assigned_by_user_id', columns.confirmed_by_user_id);
  }
  if (!projects.has(columns.project_id)) {
    throw projectNotFound(columns.project_id);
  }
  if (columns.task_id !== null && taskProjects.get(columns.task_id) !== columns.project_id) {
    throw invalidAllocation(
      `task_id: task ${columns.task_id} is not a task of project ${columns.project_id} in your company`,
    );
  }
}

/** The allocation's days on the calendar; a plan that cannot be made is the caller's 400. */
function planned(
  columns: AllocationColumns,
  units: AllocationUnits,
  calendar: UserCalendar,
  pinned: Map<string, number>,
): PlannedDay[] {
  try {
    return planDays(columns, units, calendar, pinned);
  } catch (error) {
    if (error instanceof DayPlanError) {
      throw invalidAllocation(error.message);
    }
    throw error;
  }
}

/** The days this allocation books whose counted bookings exceed the person's capacity. */
async function overAllocated(
  unit: LedgerUnit,
  allocation: { user_id: number; from: string; to: string; status: AllocationStatus },
  days: readonly PlannedDay[],
  calendar: UserCalendar,
  countTentative: boolean,
): Promise<OverAllocatedDayDto[]> {
  if (allocation.status === 'tentative' && !countTentative) {
    return [];
  }
  const booked = await unit.bookedByDay(allocation.user_id, allocation.from, allocation.to);
  const over: OverAllocatedDayDto[] = [];
  for (const day of days) {
    if (day.hours <= 0) {
      continue;
    }
    const sums = booked.get(day.date) ?? { confirmed: 0, tentative: 0 };
    const counted = Math.round((sums.confirmed + (countTentative ? sums.tentative : 0)) * 100) / 100;
    const number = dayNumberOf(day.date);
    const capacity = calendar.capacity({ from: number, to: number });
    if (counted > capacity + EPSILON) {
      over.push({
        date: day.date,
        capacity,
        booked: counted,
        over: Math.round((counted - capacity) * 100) / 100,
      });
    }
  }
  return over;
}

/** The days a fill moves: the placeholder's allocations' span, within the window. */
/**
 * One allocation of a placeholder's fill: its part inside the window goes to the person, planned on
 * their calendar in its mode (pinned days kept). Inside the window it moves whole (its id); crossing
 * a bound it is split, the placeholder keeping the id and the days outside (a window inside it also
 * leaves a new placeholder part after it).
 */
async function moveToPerson(
  unit: LedgerUnit,
  allocation: LedgerAllocation,
  days: readonly PlannedDay[],
  fill: { window: { from: string; to: string } | undefined; person: number; calendar: UserCalendar },
): Promise<{
  moved: string[];
  created: string[];
  written: { id: string; columns: AllocationColumns; days: PlannedDay[] };
}> {
  const { window, person, calendar } = fill;
  const moved: string[] = [];
  const created: string[] = [];
  const part = {
    from: window && window.from > allocation.from ? window.from : allocation.from,
    to: window && window.to < allocation.to ? window.to : allocation.to,
  };
  const inside = days.filter((day) => day.date >= part.from && day.date <= part.to);
  const units: AllocationUnits =
    allocation.mode === 'hours_per_day'
      ? { mode: 'hours_per_day', hoursPerDay: allocation.hours_per_day ?? 0 }
      : { mode: 'total_hours', totalHours: totalOf(inside) };
  const pinned = new Map(inside.filter((day) => day.pinned).map((day) => [day.date, day.hours]));
  const base = {
    ...allocation,
    ...part,
    user_id: person,
    placeholder_id: null,
    confirmed_at: dateOrNull(allocation.confirmed_at),
  };
  const moveDays = planned(base, units, calendar, pinned);
  const columns: AllocationColumns = { ...base, total_hours: totalOf(moveDays) };
  const overlapping = await unit.firstOverlapping(columns, columns.project_id, columns);
  if (overlapping) {
    throw overlap(columns, overlapping);
  }
  let id = allocation.id;
  if (part.from === allocation.from && part.to === allocation.to) {
    await unit.update(id, columns);
    moved.push(id);
  } else {
    // What stays on the placeholder keeps its days, as a total (as a split keeps them).
    const keep = (range: { from: string; to: string }) => {
      const kept = days.filter((day) => day.date >= range.from && day.date <= range.to);
      return {
        columns: {
          ...allocation,
          ...range,
          total_hours: totalOf(kept),
          confirmed_at: dateOrNull(allocation.confirmed_at),
        },
        days: kept,
      };
    };
    const first =
      part.from > allocation.from
        ? keep({ from: allocation.from, to: dateOf(dayNumberOf(part.from) - 1) })
        : undefined;
    const last =
      part.to < allocation.to
        ? keep({ from: dateOf(dayNumberOf(part.to) + 1), to: allocation.to })
        : undefined;
    const original = first ?? last;
    if (original) {
      await unit.update(allocation.id, original.columns);
      await unit.writeDays(allocation, original.days);
    }
    if (first && last) {
      const after = await unit.insert(last.columns);
      await unit.writeDays({ ...allocation, id: after }, last.days);
      created.push(after);
    }
    id = await unit.insert(columns);
    created.push(id);
  }
  await unit.writeDays({ ...columns, id }, moveDays);
  return { moved, created, written: { id, columns, days: moveDays } };
}

function clipped(
  allocations: readonly { from: string; to: string }[],
  window: { from: string; to: string } | undefined,
): { from: string; to: string } {
  const from = allocations.map((allocation) => allocation.from).reduce((a, b) => (a < b ? a : b));
  const to = allocations.map((allocation) => allocation.to).reduce((a, b) => (a > b ? a : b));
  return {
    from: window && window.from > from ? window.from : from,
    to: window && window.to < to ? window.to : to,
  };
}

function nothingToAssign(placeholderId: string, window: { from: string; to: string } | undefined) {
  return new AllocationError(
    'NothingToAssignError',
    `Placeholder ${placeholderId} has no booking ` +
      (window ? `from ${window.from} to ${window.to}` : 'at all') +
      ': nothing to move',
    409,
  );
}

function overlap(columns: AllocationColumns, existing: { from: string; to: string } | undefined) {
  const who =
    columns.placeholder_id === null ? `User ${columns.user_id}` : `Placeholder ${columns.placeholder_id}`;
  return new AllocationError(
    AllocationErrorName.AllocationAlreadyExistInDatesRange,
    `${who} is already allocated on project ${columns.project_id} ` +
      (existing ? `from ${existing.from} to ${existing.to}` : 'within these dates') +
      ': change or split that allocation, or choose days that do not overlap it',
    409,
  );
}

function unitsOf(body: UpdateAllocationV2Dto): AllocationUnits | undefined {
  const given = [
    body.hours_per_day !== undefined && ({ mode: 'hours_per_day', hoursPerDay: body.hours_per_day } as const),
    body.total_hours !== undefined && ({ mode: 'total_hours', totalHours: body.total_hours } as const),
    body.percent_of_capacity !== undefined &&
      ({ mode: 'percent_of_capacity', percent: body.percent_of_capacity } as const),
  ].filter((units) => units !== false);
  if (given.length > 1) {
    throw invalidAllocation('give only one of hours_per_day, total_hours and percent_of_capacity');
  }
  return given[0];
}

function storedUnits(stored: LedgerAllocation): AllocationUnits {
  switch (stored.mode) {
    case 'hours_per_day':
      return { mode: 'hours_per_day', hoursPerDay: stored.hours_per_day ?? 0 };
    case 'percent_of_capacity':
      return { mode: 'percent_of_capacity', percent: stored.percent_of_capacity ?? 0 };
    case 'total_hours':
      return { mode: 'total_hours', totalHours: stored.total_hours };
  }
}

function unitColumns(units: AllocationUnits) {
  return {
    mode: units.mode,
    hours_per_day: units.mode === 'hours_per_day' ? units.hoursPerDay : null,
    percent_of_capacity: units.mode === 'percent_of_capacity' ? units.percent : null,
  };
}

function confirmation(status: AllocationStatus, by: number | null) {
  return status === 'confirmed'
    ? { confirmed_by_user_id: by, confirmed_at: new Date() }
    : { confirmed_by_user_id: null, confirmed_at: null };
}

function pinnedOf(days: readonly { date: string; hours: number }[] | undefined): Map<string, number> {
  const pinned = new Map<string, number>();
  for (const day of days ?? []) {
    if (!isCalendarDate(day.date)) {
      throw invalidAllocation(`days: ${day.date} is not a real calendar date`);
    }
    if (pinned.has(day.date)) {
      throw invalidAllocation(`days: ${day.date} is given twice`);
    }
    pinned.set(day.date, day.hours);
  }
  return pinned;
}

function cursorOf(cursor: string): { from: string; id: string } {
  const [from, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (
    !from ||
    !id ||
    !isCalendarDate(from) ||
    !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id)
  ) {
    throw invalidAllocation('cursor must be the next_cursor of a previous page');
  }
  return { from, id };
}

function dateOrNull(value: string | null): Date | null {
  return value === null ? null : new Date(value);
}

/**
 * An allocation the ledger plans again (`replanned`), planned against its person's calendar: its new
 * days, or undefined when they are the ones it has. One with no days is planned whole. One with days
 * (hours per day, percent of capacity) keeps its pinned days and its days outside `window` (the days
 * whose time off the calendar knows); its other days follow the calendar.
 */
function replannedDays(
  allocation: LedgerAllocation,
  before: readonly PlannedDay[] | undefined,
  calendar: UserCalendar,
  window: { from: string; to: string },
): PlannedDay[] | undefined {
  if (!before) {
    return planStored(allocation, calendar);
  }
  const pinned = new Map(before.filter((day) => day.pinned).map((day) => [day.date, day.hours]));
  const planned = new Map(
    planDays(allocation, storedUnits(allocation), calendar, pinned).map((day) => [day.date, day]),
  );
  const after = before.map((day) =>
    day.date >= window.from && day.date <= window.to ? (planned.get(day.date) ?? day) : day,
  );
  return after.some((day, index) => day.hours !== before[index]?.hours) ? after : undefined;
}

/**
 * Plans again, under their people's (placeholders') locks, the allocations read there (`replanned` rows), and writes
 * what changed: a new total (and so a new version and an `updated` event) for one that had days,
 * then its days. Answers the ids it changed.
 */
async function replan(
  unit: LedgerUnit,
  allocations: readonly LedgerAllocation[],
  calendarOf: (allocation: LedgerAllocation) => UserCalendar,
  window: { from: string; to: string },
): Promise<string[]> {
  if (allocations.length === 0) {
    return [];
  }
  const stored = await unit.daysOf(allocations.map((allocation) => allocation.id));
  const changed: string[] = [];
  for (const allocation of allocations) {
    const before = stored.get(allocation.id);
    const after = replannedDays(allocation, before, calendarOf(allocation), window);
    if (!after) {
      continue;
    }
    if (before) {
      await unit.setTotal(allocation.id, totalOf(after));
    }
    await unit.writeDays(allocation, after);
    changed.push(allocation.id);
  }
  return changed;
}

/**
 * The days of an allocation the ledger has none for, by its stored units and the person's calendar;
 * where its days have no capacity left to plan on (the schedule changed), its hours spread evenly.
 */
function planStored(allocation: LedgerAllocation, calendar: UserCalendar): PlannedDay[] {
  try {
    return planDays(allocation, storedUnits(allocation), calendar);
  } catch (error) {
    if (!(error instanceof DayPlanError)) {
      throw error;
    }
    return planDays(allocation, { mode: 'total_hours', totalHours: allocation.total_hours }, evenCalendar());
  }
}

/** A calendar of 1 hour every day: spreads a total evenly over calendar days. New each time: a calendar caches its days. */
const evenCalendar = (): UserCalendar =>
  new UserCalendar(
    [0, 1, 2, 3, 4, 5, 6].map((dayOfWeek) => ({
      dayOfWeek,
      dailyHours: 1,
      startAt: '00:00:00',
      endAt: '01:00:00',
    })),
  );
