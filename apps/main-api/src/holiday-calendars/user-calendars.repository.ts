import { Injectable } from '@nestjs/common';
import { FeatureRepository, RequestTenantScope } from '@platform/database';
import { ResourceNotFoundError } from '../errors/main-api.errors';
import { User } from '../users/user.entity';
import { UserCalendarMembership } from './user-calendar-membership.entity';

/** A membership with its calendar's name, by first day. */
export interface MembershipRow {
  id: number;
  version: number;
  calendar_id: number;
  calendar_name: string;
  effective_from: string;
}

/** A holiday of a person's calendar in force on its day. */
export interface PersonHolidayRow {
  user_id: number;
  date: string;
  name: string;
  hours_off: number | null;
}

/** People's holiday calendars and time zones, in the request's company. */
@Injectable()
export class UserCalendarsRepository extends FeatureRepository<UserCalendarMembership> {
  constructor(scope: RequestTenantScope) {
    super(scope, {
      entity: UserCalendarMembership,
      alias: 'membership',
      filters: {},
      notFound: (id) => new ResourceNotFoundError(`Calendar membership ${id}`),
    });
  }

  /** The person (not deleted) with their time zone, or the 404 naming them. */
  async requireUser(userId: number): Promise<Pick<User, 'id' | 'timeZone'>> {
    const user = await this.scope.repository(User).findById(userId);
    if (!user) {
      throw new ResourceNotFoundError(`User ${userId}`);
    }
    return user;
  }

  async setTimeZone(userId: number, timeZone: string): Promise<void> {
    await this.scope.repository(User).updateWhere({ id: userId }, { timeZone });
  }

  membershipsOf(userId: number): Promise<MembershipRow[]> {
    return this.scope.sql.select<MembershipRow>(
      `SELECT m.id, m.version, m.calendar_id, c.name AS calendar_name, m.effective_from::text AS effective_from
         FROM user_holiday_calendars m JOIN holiday_calendars c ON c.id = m.calendar_id
        WHERE m.company_id = $1 AND m.user_id = $2 ORDER BY m.effective_from`,
      [this.scope.companyId(), userId],
    );
  }

  /** The time zone of each of these people (those of the company). */
  async timeZonesOf(userIds: readonly number[]): Promise<Record<string, string>> {
    const rows = await this.scope.sql.select<{ id: number; time_zone: string }>(
      'SELECT id, time_zone FROM users WHERE company_id = $1 AND id = ANY($2::integer[])',
      [this.scope.companyId(), userIds],
    );
    return Object.fromEntries(rows.map((row) => [String(row.id), row.time_zone]));
  }

  /**
   * The holidays each of these people has off in the period: those of the calendar in force on the
   * holiday's day (the membership with the latest first day on or before it). Deleted calendars
   * count for nothing.
   */
  holidaysOf(userIds: readonly number[], period: { from: string; to: string }): Promise<PersonHolidayRow[]> {
    return this.scope.sql.select<PersonHolidayRow>(
      `SELECT m.user_id, h.date::text AS date, h.name, h.hours_off::float8 AS hours_off
         FROM user_holiday_calendars m
         JOIN holiday_calendars c ON c.id = m.calendar_id AND c.deleted_at IS NULL
         JOIN holidays h ON h.calendar_id = m.calendar_id AND h.company_id = m.company_id
        WHERE m.company_id = $1 AND m.user_id = ANY($2::integer[])
          AND h.date BETWEEN $3::date AND $4::date AND h.date >= m.effective_from
          AND NOT EXISTS (SELECT 1 FROM user_holiday_calendars later
                           WHERE later.company_id = m.company_id AND later.user_id = m.user_id
                             AND later.effective_from > m.effective_from AND later.effective_from <= h.date)
        ORDER BY m.user_id, h.date`,
      [this.scope.companyId(), userIds, period.from, period.to],
    );
  }
}
