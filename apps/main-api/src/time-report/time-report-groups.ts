import { MAX_ENTITY_ID } from '@platform/contracts';
import type { PlannedHoursRow } from '../planner-client/planner.client';
import type { TimeReportFiguresDto, TimeReportPeriodDto, TimeReportRowDto } from './dto/time-report.dto';
import type { ReportPeriod } from './time-report-periods';
import { TimeReportCursorError } from './time-report.errors';

export const TIME_REPORT_GROUPINGS = ['user', 'project', 'user,project'] as const;
export type TimeReportGrouping = (typeof TIME_REPORT_GROUPINGS)[number];

export type KeyColumn = 'user_id' | 'project_id';

/** The ids that make a group, in the report's order: user_id, then project_id. */
export type GroupKey = readonly number[];

export function keyColumnsOf(grouping: TimeReportGrouping): readonly KeyColumn[] {
  switch (grouping) {
    case 'user':
      return ['user_id'];
    case 'project':
      return ['project_id'];
    case 'user,project':
      return ['user_id', 'project_id'];
  }
}

export function compareKeys(a: GroupKey, b: GroupKey): number {
  for (let index = 0; index < a.length; index += 1) {
    if (a[index] !== b[index]) {
      return a[index] - b[index];
    }
  }
  return 0;
}

const keyText = (key: GroupKey): string => key.join(',');

interface Cursor {
  group_by: TimeReportGrouping;
  after: number[];
}

/** The cursor of a page whose last group is `key`: base64url JSON, opaque to callers. */
export function encodeCursor(grouping: TimeReportGrouping, key: GroupKey): string {
  const cursor: Cursor = { group_by: grouping, after: [...key] };
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

/** The key a cursor resumes after; 400 naming `cursor` unless an answer of this grouping made it. */
export function decodeCursor(grouping: TimeReportGrouping, raw: string): GroupKey {
  let cursor: unknown;
  try {
    cursor = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw new TimeReportCursorError();
  }
  const { group_by: groupBy, after } = (cursor ?? {}) as Partial<Cursor>;
  if (
    groupBy !== grouping ||
    !Array.isArray(after) ||
    after.length !== keyColumnsOf(grouping).length ||
    !after.every((id) => Number.isSafeInteger(id) && id >= 1 && id <= MAX_ENTITY_ID)
  ) {
    throw new TimeReportCursorError();
  }
  return after;
}

/** The planner's hours of one group, by period key (the period's first day). */
export interface PlannedGroup {
  key: GroupKey;
  periods: Map<string, { confirmed: number; tentative: number }>;
}

/**
 * The planner's rows summed by group. A placeholder's hours are no one's: they count only in a
 * report by project alone that is not narrowed to people (`people`: user_ids, or the caller's own id
 * for roles 4-5); a person's count when the report includes that person.
 */
export function plannedGroups(
  rows: readonly PlannedHoursRow[],
  grouping: TimeReportGrouping,
  people: ReadonlySet<number> | undefined,
): Map<string, PlannedGroup> {
  const groups = new Map<string, PlannedGroup>();
  for (const row of rows) {
    const counts =
      row.user_id === null
        ? grouping === 'project' && people === undefined
        : (people?.has(row.user_id) ?? true);
    if (!counts) {
      continue;
    }
    const key = keyColumnsOf(grouping).map((column) => row[column] as number);
    const group: PlannedGroup = groups.get(keyText(key)) ?? { key, periods: new Map() };
    groups.set(keyText(key), group);
    const period = group.periods.get(row.period_start) ?? { confirmed: 0, tentative: 0 };
    group.periods.set(row.period_start, {
      confirmed: period.confirmed + row.confirmed_hours,
      tentative: period.tentative + row.tentative_hours,
    });
  }
  return groups;
}

/** The first `count` keys after `after` (all from the first without it), in order. */
export function firstKeysAfter(
  keys: Iterable<GroupKey>,
  after: GroupKey | undefined,
  count: number,
): GroupKey[] {
  return [...keys]
    .filter((key) => after === undefined || compareKeys(key, after) > 0)
    .sort(compareKeys)
    .slice(0, count);
}

/**
 * What the report's statement answers: one group's entries in one period (`period_key` its first
 * day), or, for a group with planned hours only, one row with `period_key` null and no hours. Hours
 * are numeric sums, as text.
 */
export interface LoggedPeriodRow {
  user_id: number | null;
  project_id: number | null;
  first_name: string | null;
  last_name: string | null;
  project_name: string | null;
  period_key: string | null;
  logged_hours: string;
  approved_hours: string;
  billable_hours: string;
}

/** A period's figures in whole hundredths of an hour, so that sums are exact before rounding. */
interface Cents {
  logged: number;
  approved: number;
  billable: number;
  planned: number;
  tentative: number;
}

const NO_CENTS: Cents = { logged: 0, approved: 0, billable: 0, planned: 0, tentative: 0 };

const cents = (hours: string | number): number => Math.round(Number(hours) * 100);

export interface TimeReportPage {
  data: TimeReportRowDto[];
  next_cursor: string | null;
  has_more: boolean;
}

/**
 * The page from the statement's rows (ordered by key, at most `limit` + 1 groups): each group with
 * every period of the report, empty ones included, and its totals, the sums of its periods as shown.
 * `planned` is undefined without compare=planned, and its figures are then left out.
 */
export function assemblePage(
  logged: readonly LoggedPeriodRow[],
  planned: Map<string, PlannedGroup> | undefined,
  periods: readonly ReportPeriod[],
  grouping: TimeReportGrouping,
  limit: number,
): TimeReportPage {
  const columns = keyColumnsOf(grouping);
  const groups = new Map<string, { key: GroupKey; names: LoggedPeriodRow; byPeriod: Map<string, Cents> }>();
  for (const row of logged) {
    const key = columns.map((column) => row[column] as number);
    const group = groups.get(keyText(key)) ?? { key, names: row, byPeriod: new Map<string, Cents>() };
    groups.set(keyText(key), group);
    if (row.period_key !== null) {
      group.byPeriod.set(row.period_key, {
        ...NO_CENTS,
        logged: cents(row.logged_hours),
        approved: cents(row.approved_hours),
        billable: cents(row.billable_hours),
      });
    }
  }
  const all = [...groups.values()];
  const page = all.slice(0, limit);
  const data = page.map(({ key, names, byPeriod }): TimeReportRowDto => {
    const plan = planned?.get(keyText(key));
    const series = periods.map((period) => {
      const hours = byPeriod.get(period.key) ?? NO_CENTS;
      const plannedHours = plan?.periods.get(period.key);
      return {
        period,
        cents: {
          ...hours,
          planned: cents(plannedHours?.confirmed ?? 0),
          tentative: cents(plannedHours?.tentative ?? 0),
        },
      };
    });
    const total = series.reduce<Cents>(
      (sum, { cents: figures }) => ({
        logged: sum.logged + figures.logged,
        approved: sum.approved + figures.approved,
        billable: sum.billable + figures.billable,
        planned: sum.planned + figures.planned,
        tentative: sum.tentative + figures.tentative,
      }),
      NO_CENTS,
    );
    const compared = planned !== undefined;
    return {
      ...(columns.includes('user_id') && {
        user_id: names.user_id as number,
        first_name: names.first_name,
        last_name: names.last_name,
      }),
      ...(columns.includes('project_id') && {
        project_id: names.project_id as number,
        project_name: names.project_name,
      }),
      totals: figuresOf(total, compared),
      periods: series.map(({ period, cents: figures }): TimeReportPeriodDto => ({
        period_start: period.start,
        period_end: period.end,
        ...figuresOf(figures, compared),
      })),
    };
  });
  const last = page.at(-1);
  const hasMore = all.length > limit;
  return {
    data,
    next_cursor: hasMore && last ? encodeCursor(grouping, last.key) : null,
    has_more: hasMore,
  };
}

function figuresOf(figures: Cents, compared: boolean): TimeReportFiguresDto {
  return {
    logged_hours: figures.logged / 100,
    approved_hours: figures.approved / 100,
    billable_hours: figures.billable / 100,
    ...(compared && {
      planned_hours: figures.planned / 100,
      tentative_hours: figures.tentative / 100,
      variance_hours: (figures.logged - figures.planned) / 100,
    }),
  };
}
