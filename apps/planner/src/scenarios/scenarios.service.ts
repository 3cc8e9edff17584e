import { keysetCursor, parseKeysetCursor } from '../common/keyset-cursor';
import { Injectable } from '@nestjs/common';
import { PrincipalContext } from '@platform/auth';
import type { CallerContext } from '@platform/main-api-client';
import { assertWritePrecondition, PreconditionFailedError } from '@platform/runtime';
import { AllocationError } from '../allocations/allocation.errors';
import { dateOf, dayNumberOf } from '../allocations/calendar';
import type { UserCalendar } from '../allocations/capacity';
import { calendarOfUser } from '../allocations/project-allocations.report';
import { MAX_AVAILABILITY_DAYS } from '../availability/dto/availability.dto';
import { AvailabilityService } from '../availability/availability.service';
import type { AllocationV2Dto } from '../ledger/dto/allocation-v2.dto';
import { LedgerRepository, type LedgerAllocation, type LedgerUnit } from '../ledger/ledger.repository';
import { PlannerMainApi } from '../main-api/planner-main-api';
import { PlaceholdersRepository } from '../placeholders/placeholders.repository';
import type {
  AppliedChangesDto,
  ApplyScenarioAnswerDto,
  CapacityImpactDto,
  CreateScenarioDto,
  ImpactFiguresDto,
  ListScenariosQueryDto,
  ScenarioConflictDto,
  ScenarioDiffDto,
  ScenarioDto,
  ScenarioOverAllocatedDayDto,
  ScenarioPageDto,
} from './dto/scenario.dto';
import { Plan } from './plan';
import { RequestPlan } from './request-plan';
import type { ScenarioEntityKind } from './scenario-plan.entity';
import { Scenario } from './scenario.entity';
import { invalidScenario, scenarioApplied, scenarioNotFound } from './scenario.errors';
import {
  ScenariosRepository,
  type ScenarioChangeRow,
  type ScenarioRow,
  type ScenariosUnit,
} from './scenarios.repository';

/** A day over capacity by less than this is rounding, not overbooking (as the ledger weighs). */
const EPSILON = 0.005;

/** The changes of a scenario by entity and kind of change. */
interface Sorted {
  created: string[];
  updated: string[];
  deleted: string[];
}

/**
 * Scenarios (issue 39): named drafts of the company's plan, shared by its people. A draft is a copy
 * (ScenariosRepository.create) that v2 writes naming it change instead of the live plan, and reads
 * naming it answer; its diff lists what it changes with each person's capacity before and after; its
 * apply writes all of it to the live plan in one transaction, under the people's locks and the
 * company's capacity policy, or nothing with every conflict listed.
 */
@Injectable()
export class ScenariosService {
  constructor(
    private readonly scenarios: ScenariosRepository,
    private readonly ledger: LedgerRepository,
    private readonly placeholders: PlaceholdersRepository,
    private readonly availability: AvailabilityService,
    private readonly mainApi: PlannerMainApi,
    private readonly plans: RequestPlan,
    private readonly principals: PrincipalContext,
  ) {}

  async create(body: CreateScenarioDto): Promise<ScenarioDto> {
    const base = body.base === undefined || body.base === 'live' ? null : body.base.toLowerCase();
    const row = await this.scenarios.create(
      { name: body.name, author_user_id: this.principals.get().userId ?? null },
      base,
    );
    return dtoOf(row);
  }

  async get(id: string): Promise<ScenarioDto> {
    const row = await this.scenarios.get(id);
    if (!row) {
      throw scenarioNotFound(id);
    }
    return dtoOf(row);
  }

  async list(query: ListScenariosQueryDto): Promise<ScenarioPageDto> {
    const rows = await this.scenarios.list({
      status: query.status,
      after: query.cursor === undefined ? undefined : cursorOf(query.cursor),
      limit: query.limit,
    });
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    const more = rows.length > query.limit;
    return {
      data: page.map(dtoOf),
      next_cursor: more && last ? keysetCursor(last.created_at, last.id) : null,
      has_more: more,
    };
  }

  /** Discards a draft and its copy, or forgets an applied one (its changes stay live). If-Match required. */
  async remove(id: string): Promise<void> {
    await this.scenarios.transaction(async (unit) => {
      const row = await unit.lock(id);
      if (!row) {
        throw scenarioNotFound(id);
      }
      assertWritePrecondition(Scenario, id, row.version, 'scenario');
      await unit.delete(id);
    });
  }

  /**
   * What the scenario changes in the live plan: each allocation and placeholder created, changed or
   * deleted, as the live plan has it now and as the scenario does, with the conflicts an apply would
   * refuse for their versions; and, per person whose bookings change, their figures over the days
   * it changes in both plans (the availability read's, so the two reconcile).
   */
  async diff(id: string, caller: CallerContext): Promise<ScenarioDiffDto> {
    const scenario = await this.draft(id);
    const changes = await this.scenarios.changes(id);
    const allocationIds = changes
      .filter((change) => change.entity === 'allocation')
      .map((change) => change.id);
    const placeholderIds = changes
      .filter((change) => change.entity === 'placeholder')
      .map((change) => change.id);
    const inScenario = Plan.scenario(scenario.id);
    const live = await this.allocationsWithDays(Plan.LIVE, allocationIds);
    const drafted = await this.allocationsWithDays(inScenario, allocationIds);
    const livePlaceholders = byId(await this.placeholders.byIds(placeholderIds));
    const draftedPlaceholders = byId(
      await this.plans.within(inScenario, () => this.placeholders.byIds(placeholderIds)),
    );
    const conflicts = new Map(
      changes.flatMap((change) => {
        const conflict = versionConflict(change);
        return conflict ? [[change.id, conflict] as const] : [];
      }),
    );
    const allocations = changes
      .filter((change) => change.entity === 'allocation')
      .map((change) => ({
        id: change.id,
        change: change.change,
        live: live.get(change.id) ?? null,
        scenario: change.change === 'deleted' ? null : (drafted.get(change.id) ?? null),
        conflict: conflicts.get(change.id) ?? null,
      }));
    const placeholders = changes
      .filter((change) => change.entity === 'placeholder')
      .map((change) => ({
        id: change.id,
        change: change.change,
        live: livePlaceholders.get(change.id) ?? null,
        scenario: change.change === 'deleted' ? null : (draftedPlaceholders.get(change.id) ?? null),
        conflict: conflicts.get(change.id) ?? null,
      }));
    const touched = allocations.flatMap((change) =>
      [change.live, change.scenario].flatMap((row) => row ?? []),
    );
    return {
      scenario: dtoOf(scenario),
      allocations,
      placeholders,
      capacity_impact: await this.capacityImpact(inScenario, touched, caller),
      conflicts: conflicts.size,
    };
  }

  /**
   * Writes the scenario's changes to the live plan in one transaction: under the scenario's row lock
   * (its If-Match checked there), then the locks of every person and placeholder it touches (as any
   * live writer takes them, so capacity is weighed against a plan no one else changes meanwhile).
   * A live row changed since the copy, an overlap in the result, a placeholder still booked, or
   * (under the reject policy) a day over capacity is a conflict; any conflict rolls it all back
   * (409 ScenarioConflictError, every conflict listed). The live tables' triggers record each
   * change as any write does, and the scenario's own update is one `scenarios` event.
   */
  async apply(id: string, caller: CallerContext): Promise<ApplyScenarioAnswerDto> {
    const scenario = await this.draft(id);
    // The calendars of the people the scenario books, asked before the transaction (no call inside).
    const before = await this.scenarios.changes(id);
    const inScenario = Plan.scenario(scenario.id);
    const written = await this.plans.within(inScenario, () =>
      this.ledger.byIds(before.filter(isWrittenAllocation).map((change) => change.id)),
    );
    const people = [...new Set(written.flatMap((row) => row.user_id ?? []))];
    const span = spanOf(written);
    const lookups =
      people.length > 0 && span
        ? await this.mainApi.lookups({ userIds: people, period: span }, caller)
        : undefined;
    const calendars = new Map(
      lookups ? people.map((person) => [person, calendarOfUser(lookups, person)]) : [],
    );
    const settings = await this.ledger.settings();
    const result = await this.scenarios.transaction(async (unit, live) => {
      const locked = await lockChecked(unit, id);
      assertWritePrecondition(Scenario, id, locked.version, 'scenario');
      if (locked.version !== scenario.version) {
        // Written into between the calendars' look-up and the lock: the caller reads and tries again.
        throw new PreconditionFailedError('scenario');
      }
      const changes = await unit.changes(id);
      const allocations = sorted(changes, 'allocation');
      const placeholders = sorted(changes, 'placeholder');
      const liveRows = await this.ledger.byIds([...allocations.updated, ...allocations.deleted]);
      await live.lockPeople([...people, ...liveRows.flatMap((row) => row.user_id ?? [])]);
      await live.lockPlaceholders([
        ...written.flatMap((row) => row.placeholder_id ?? []),
        ...liveRows.flatMap((row) => row.placeholder_id ?? []),
      ]);
      const versions = await unit.lockLive({
        allocations: changes.filter((change) => change.entity === 'allocation').map((change) => change.id),
        placeholders: changes.filter((change) => change.entity === 'placeholder').map((change) => change.id),
      });
      const stale = changes.flatMap(
        (change) => versionConflict({ ...change, live_version: versions.get(change.id) ?? null }) ?? [],
      );
      if (stale.length > 0) {
        throw conflictError(id, stale);
      }
      await unit.deferOverlaps();
      await unit.writePlaceholders(id, placeholders.created, placeholders.updated);
      await unit.deleteLive('allocation', allocations.deleted);
      await unit.writeAllocations(id, allocations.created, allocations.updated);
      const conflicts = await overlapsOf(unit, [...allocations.created, ...allocations.updated]);
      for (const placeholderId of await unit.bookedPlaceholders(placeholders.deleted)) {
        conflicts.push({
          entity: 'placeholder',
          id: placeholderId,
          reason: 'placeholder_booked',
          message: `placeholder ${placeholderId} is still booked in the live plan: the scenario cannot delete it`,
        });
      }
      await unit.deleteLive(
        'placeholder',
        placeholders.deleted.filter(
          (placeholderId) => !conflicts.some((conflict) => conflict.id === placeholderId),
        ),
      );
      const over = await weigh(live, written, calendars, settings.count_tentative);
      if (settings.capacity_policy === 'reject') {
        conflicts.push(...overCapacityConflicts(over));
      }
      if (conflicts.length > 0) {
        throw conflictError(id, conflicts);
      }
      if (settings.capacity_policy === 'warn') {
        for (const { allocation, day } of firstOfEachDay(over)) {
          await live.recordOverAllocated({ id: allocation.id, project_id: allocation.project_id }, [
            { user_id: day.user_id, date: day.date, capacity: day.capacity, booked: day.booked },
          ]);
        }
      }
      const applied: AppliedChangesDto = {
        created: { allocations: allocations.created, placeholders: placeholders.created },
        updated: { allocations: allocations.updated, placeholders: placeholders.updated },
        deleted: { allocations: allocations.deleted, placeholders: placeholders.deleted },
      };
      await unit.markApplied(id, this.principals.get().userId ?? null, applied);
      return { applied, over: uniqueDays(over) };
    });
    return { ...result.applied, scenario: await this.get(id), over_allocated_days: result.over };
  }

  /** The scenario, a draft of the caller's company (404, 409 ScenarioAppliedError). */
  private async draft(id: string): Promise<ScenarioRow> {
    const row = await this.scenarios.get(id);
    if (!row) {
      throw scenarioNotFound(id);
    }
    if (row.status !== 'draft') {
      throw scenarioApplied(id);
    }
    return row;
  }

  private allocationsWithDays(plan: Plan, ids: string[]): Promise<Map<string, AllocationV2Dto>> {
    return this.plans.within(plan, async () => {
      const [rows, days] = await Promise.all([this.ledger.byIds(ids), this.ledger.daysOf(ids)]);
      return new Map(rows.map((row) => [row.id, { ...row, days: days.get(row.id) ?? [] }]));
    });
  }

  /**
   * Per person whose bookings the scenario changes, between the first and last day of those
   * changes: their availability figures in the live plan and in the scenario (the availability
   * read itself, so the impact and the two reads reconcile). In slices the read takes (at most
   * MAX_AVAILABILITY_PEOPLE people, MAX_AVAILABILITY_DAYS days each).
   */
  private async capacityImpact(
    inScenario: Plan,
    touched: readonly LedgerAllocation[],
    caller: CallerContext,
  ): Promise<CapacityImpactDto[]> {
    const spans = new Map<number, { from: string; to: string }>();
    for (const row of touched) {
      if (row.user_id === null) {
        continue;
      }
      const span = spans.get(row.user_id);
      spans.set(row.user_id, {
        from: span && span.from < row.from ? span.from : row.from,
        to: span && span.to > row.to ? span.to : row.to,
      });
    }
    const impact: CapacityImpactDto[] = [];
    for (const [userId, span] of [...spans].sort(([a], [b]) => a - b)) {
      const [livePlan, scenarioPlan] = [
        await this.figures(Plan.LIVE, userId, span, caller),
        await this.figures(inScenario, userId, span, caller),
      ];
      impact.push({
        user_id: userId,
        ...span,
        live: livePlan,
        scenario: scenarioPlan,
        booked_change: round(
          scenarioPlan.confirmed + scenarioPlan.tentative - livePlan.confirmed - livePlan.tentative,
        ),
      });
    }
    return impact;
  }

  /** One person's figures over the span in one plan, read a year at a time. */
  private async figures(
    plan: Plan,
    userId: number,
    span: { from: string; to: string },
    caller: CallerContext,
  ): Promise<ImpactFiguresDto> {
    const sums: ImpactFiguresDto = {
      capacity: 0,
      confirmed: 0,
      tentative: 0,
      available: 0,
      over_allocated_days: 0,
    };
    for (const window of slices(span)) {
      const { answer } = await this.plans.within(plan, () =>
        this.availability.read({ user_ids: String(userId), ...window, granularity: 'day' }, caller),
      );
      for (const day of answer?.people[0]?.series ?? []) {
        sums.capacity += day.capacity;
        sums.confirmed += day.confirmed;
        sums.tentative += day.tentative;
        sums.available += day.available;
        sums.over_allocated_days += day.confirmed > day.capacity + EPSILON ? 1 : 0;
      }
    }
    return {
      capacity: round(sums.capacity),
      confirmed: round(sums.confirmed),
      tentative: round(sums.tentative),
      available: round(sums.available),
      over_allocated_days: sums.over_allocated_days,
    };
  }
}

/** The scenario under its row lock, a draft (404, 409 ScenarioAppliedError otherwise). */
async function lockChecked(unit: ScenariosUnit, id: string): Promise<ScenarioRow> {
  const row = await unit.lock(id);
  if (!row) {
    throw scenarioNotFound(id);
  }
  if (row.status !== 'draft') {
    throw scenarioApplied(id);
  }
  return row;
}

/** A change whose live row moved (or went, or already is there) since the scenario copied it. */
function versionConflict(change: ScenarioChangeRow): ScenarioConflictDto | undefined {
  const what = `${change.entity} ${change.id}`;
  if (change.change === 'created') {
    return change.live_version === null
      ? undefined
      : {
          entity: change.entity,
          id: change.id,
          reason: 'already_exists',
          message: `${what} is in the live plan already (a scenario made from this one was applied)`,
        };
  }
  if (change.live_version === null) {
    return {
      entity: change.entity,
      id: change.id,
      reason: 'live_deleted',
      message: `${what} was deleted from the live plan since the scenario copied it`,
    };
  }
  return change.live_version === change.base_version
    ? undefined
    : {
        entity: change.entity,
        id: change.id,
        reason: 'live_changed',
        message:
          `${what} changed in the live plan since the scenario copied it ` +
          `(version ${change.base_version}, now ${change.live_version})`,
      };
}

function conflictError(id: string, conflicts: ScenarioConflictDto[]): AllocationError {
  return new AllocationError(
    'ScenarioConflictError',
    `Scenario ${id} cannot be applied as it stands: ${conflicts.length} conflict(s) with the live plan; nothing was applied`,
    409,
    { conflicts },
  );
}

const isWrittenAllocation = (change: ScenarioChangeRow) =>
  change.entity === 'allocation' && change.change !== 'deleted';

function sorted(changes: readonly ScenarioChangeRow[], entity: ScenarioEntityKind): Sorted {
  const of = (kind: ScenarioChangeRow['change']) =>
    changes.filter((change) => change.entity === entity && change.change === kind).map((change) => change.id);
  return { created: of('created'), updated: of('updated'), deleted: of('deleted') };
}

/** The live overlaps of the written allocations, each a conflict of the scenario's allocation. */
async function overlapsOf(unit: ScenariosUnit, ids: string[]): Promise<ScenarioConflictDto[]> {
  const seen = new Set<string>();
  const conflicts: ScenarioConflictDto[] = [];
  for (const overlap of await unit.overlaps(ids)) {
    if (seen.has(overlap.id)) {
      continue;
    }
    seen.add(overlap.id);
    conflicts.push({
      entity: 'allocation',
      id: overlap.id,
      reason: 'overlap',
      message:
        `allocation ${overlap.id} would share ${overlap.from}..${overlap.to} with allocation ${overlap.other_id} ` +
        'of the same person (or placeholder) on the same project in the live plan',
    });
  }
  return conflicts;
}

/** A day over capacity, and the written allocation of the scenario booking that person that day. */
interface OverDay {
  allocation: LedgerAllocation;
  day: ScenarioOverAllocatedDayDto;
}

/**
 * The days, among those the scenario's written allocations book, where their person's bookings in
 * the live plan (as now written) exceed capacity: as the ledger weighs a write (tentative work
 * counts only when the company counts it).
 */
async function weigh(
  live: LedgerUnit,
  written: readonly LedgerAllocation[],
  calendars: ReadonlyMap<number, UserCalendar>,
  countTentative: boolean,
): Promise<OverDay[]> {
  const over: OverDay[] = [];
  const days = await live.daysOf(written.map((row) => row.id));
  for (const allocation of written) {
    const calendar = allocation.user_id === null ? undefined : calendars.get(allocation.user_id);
    if (allocation.user_id === null || !calendar || (allocation.status === 'tentative' && !countTentative)) {
      continue;
    }
    const booked = await live.bookedByDay(allocation.user_id, allocation.from, allocation.to);
    for (const day of days.get(allocation.id) ?? []) {
      if (day.hours <= 0) {
        continue;
      }
      const sums = booked.get(day.date) ?? { confirmed: 0, tentative: 0 };
      const counted = round(sums.confirmed + (countTentative ? sums.tentative : 0));
      const number = dayNumberOf(day.date);
      const capacity = calendar.capacity({ from: number, to: number });
      if (counted > capacity + EPSILON) {
        over.push({
          allocation,
          day: {
            user_id: allocation.user_id,
            date: day.date,
            capacity,
            booked: counted,
            over: round(counted - capacity),
          },
        });
      }
    }
  }
  return over;
}

function overCapacityConflicts(over: readonly OverDay[]): ScenarioConflictDto[] {
  const byAllocation = new Map<string, OverDay[]>();
  for (const entry of over) {
    byAllocation.set(entry.allocation.id, [...(byAllocation.get(entry.allocation.id) ?? []), entry]);
  }
  return [...byAllocation].map(([id, days]) => ({
    entity: 'allocation',
    id,
    reason: 'over_capacity',
    message:
      `allocation ${id} puts ${days.length} day(s) of user ${days[0]?.day.user_id} over capacity ` +
      '(the company refuses overbooking: capacity_policy reject)',
    over_allocated_days: days.map(({ day }) => ({
      date: day.date,
      capacity: day.capacity,
      booked: day.booked,
      over: day.over,
    })),
  }));
}

/** Each person's day over capacity once (two written allocations may share it), the first's. */
function firstOfEachDay(over: readonly OverDay[]): OverDay[] {
  const days = new Map<string, OverDay>();
  for (const entry of over) {
    const key = `${entry.day.user_id}:${entry.day.date}`;
    if (!days.has(key)) {
      days.set(key, entry);
    }
  }
  return [...days.values()];
}

function uniqueDays(over: readonly OverDay[]): ScenarioOverAllocatedDayDto[] {
  return firstOfEachDay(over)
    .map(({ day }) => day)
    .sort((a, b) => a.user_id - b.user_id || (a.date < b.date ? -1 : 1));
}

function spanOf(rows: readonly LedgerAllocation[]): { from: string; to: string } | undefined {
  if (rows.length === 0) {
    return undefined;
  }
  return {
    from: rows.map((row) => row.from).reduce((a, b) => (a < b ? a : b)),
    to: rows.map((row) => row.to).reduce((a, b) => (a > b ? a : b)),
  };
}

/** The span in windows the availability read takes (MAX_AVAILABILITY_DAYS each). */
function slices(span: { from: string; to: string }): { from: string; to: string }[] {
  const windows: { from: string; to: string }[] = [];
  const last = dayNumberOf(span.to);
  for (let first = dayNumberOf(span.from); first <= last; first += MAX_AVAILABILITY_DAYS) {
    const end = Math.min(last, first + MAX_AVAILABILITY_DAYS - 1);
    windows.push({ from: dateOf(first), to: dateOf(end) });
  }
  return windows;
}

function byId<Row extends { id: string }>(rows: readonly Row[]): Map<string, Row> {
  return new Map(rows.map((row) => [row.id, row]));
}

const round = (hours: number) => Math.round(hours * 100) / 100;

function dtoOf(row: ScenarioRow): ScenarioDto {
  return { ...row, applied_changes: (row.applied_changes as AppliedChangesDto | null) ?? null };
}

function cursorOf(cursor: string): { created_at: string; id: string } {
  const parsed = parseKeysetCursor(cursor, (key) => !Number.isNaN(Date.parse(key)));
  if (!parsed) {
    throw invalidScenario('cursor must be the next_cursor of a previous page');
  }
  return { created_at: parsed.key, id: parsed.id };
}
