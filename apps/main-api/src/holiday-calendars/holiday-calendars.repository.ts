import { Injectable } from '@nestjs/common';
import { FeatureRepository, RequestTenantScope, type TenantUnitOfWork } from '@platform/database';
import { Between, LessThanOrEqual, MoreThanOrEqual, type FindOptionsWhere } from 'typeorm';
import { ResourceNotFoundError } from '../errors/main-api.errors';
import { HolidayCalendar } from './holiday-calendar.entity';
import type { DatasetHoliday } from './holiday-dataset';
import { Holiday } from './holiday.entity';

/** Holiday calendars of the request's company. */
@Injectable()
export class HolidayCalendarsRepository extends FeatureRepository<HolidayCalendar> {
  constructor(scope: RequestTenantScope) {
    super(scope, {
      entity: HolidayCalendar,
      alias: 'calendar',
      filters: {
        name: { kind: 'text', column: 'name' },
        country: { kind: 'text', column: 'country' },
      },
      sorts: { name: 'name' },
      notFound: (id) => new ResourceNotFoundError(`Holiday calendar ${id}`),
    });
  }
}

/** The holidays of the request's company's calendars. */
@Injectable()
export class HolidaysRepository extends FeatureRepository<Holiday> {
  constructor(scope: RequestTenantScope) {
    super(scope, {
      entity: Holiday,
      alias: 'holiday',
      filters: {},
      notFound: (id) => new ResourceNotFoundError(`Holiday ${id}`),
    });
  }

  /** The calendar's holidays in the window (both ends included), by date. */
  ofCalendar(calendarId: number, window: { from?: string; to?: string } = {}): Promise<Holiday[]> {
    return this.scope.repository(Holiday).find({
      where: { calendarId, ...dateWithin(window) },
      order: { date: 'ASC' },
    });
  }

  /**
   * Writes a year of the dataset's holidays into the calendar, in one transaction under the
   * calendar's row lock (two imports of one calendar run one after the other): a day without a
   * holiday gets the dataset's; one the dataset wrote before and now names or sizes otherwise is
   * updated; a day holding the company's own holiday keeps it.
   */
  applyImport(calendarId: number, year: number, entries: readonly DatasetHoliday[]): Promise<ImportCounts> {
    return this.scope.transaction(async (unit) => {
      await lockCalendar(unit, calendarId);
      const rows = unit.repository(Holiday);
      const existing = new Map(
        (await rows.find({ where: { calendarId, date: Between(`${year}-01-01`, `${year}-12-31`) } })).map(
          (holiday) => [holiday.date, holiday],
        ),
      );
      const counts: ImportCounts = { created: 0, updated: 0, unchanged: 0 };
      for (const entry of entries) {
        const hoursOff = entry.hoursOff === null ? null : entry.hoursOff.toFixed(2);
        const current = existing.get(entry.date);
        if (!current) {
          await rows.create({ calendarId, date: entry.date, name: entry.name, hoursOff, source: 'import' });
          counts.created += 1;
        } else if (
          current.source === 'import' &&
          (current.name !== entry.name || numberOrNull(current.hoursOff) !== entry.hoursOff)
        ) {
          await rows.save({ ...current, name: entry.name, hoursOff });
          counts.updated += 1;
        } else {
          counts.unchanged += 1;
        }
      }
      return counts;
    });
  }
}

export interface ImportCounts {
  created: number;
  updated: number;
  unchanged: number;
}

async function lockCalendar(unit: TenantUnitOfWork, calendarId: number): Promise<void> {
  await unit.sql.select('SELECT id FROM holiday_calendars WHERE company_id = $1 AND id = $2 FOR UPDATE', [
    unit.companyId(),
    calendarId,
  ]);
}

function numberOrNull(value: string | null): number | null {
  return value === null ? null : Number(value);
}

function dateWithin(window: { from?: string; to?: string }): FindOptionsWhere<Holiday> {
  if (window.from !== undefined && window.to !== undefined) {
    return { date: Between(window.from, window.to) };
  }
  if (window.from !== undefined) {
    return { date: MoreThanOrEqual(window.from) };
  }
  return window.to === undefined ? {} : { date: LessThanOrEqual(window.to) };
}
