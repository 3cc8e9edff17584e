import { Injectable } from '@nestjs/common';
import { RequestValidationError } from '@platform/runtime';
import { ResourceNotFoundError } from '../errors/main-api.errors';
import type { CreateCalendarMembershipDto, UserCalendarDto } from './dto/user-calendar.dto';
import { HolidayCalendarsRepository } from './holiday-calendars.repository';
import {
  UserCalendarsRepository,
  type MembershipRow,
  type PersonHolidayRow,
} from './user-calendars.repository';

/** Where a person's days off come from (issue 38): calendars from a date on, and a time zone. */
@Injectable()
export class UserCalendarsService {
  constructor(
    private readonly people: UserCalendarsRepository,
    private readonly calendars: HolidayCalendarsRepository,
  ) {}

  async calendarOf(userId: number): Promise<UserCalendarDto> {
    const user = await this.people.requireUser(userId);
    return {
      user_id: user.id,
      time_zone: user.timeZone,
      memberships: await this.people.membershipsOf(userId),
    };
  }

  async setTimeZone(userId: number, timeZone: string): Promise<UserCalendarDto> {
    await this.people.requireUser(userId);
    await this.people.setTimeZone(userId, timeZone);
    return this.calendarOf(userId);
  }

  async join(userId: number, body: CreateCalendarMembershipDto): Promise<MembershipRow> {
    await this.people.requireUser(userId);
    try {
      await this.calendars.get(body.calendar_id);
    } catch (error) {
      if (error instanceof ResourceNotFoundError) {
        throw new RequestValidationError([
          {
            field: 'calendar_id',
            validation: 'reference',
            message: `calendar_id: holiday calendar ${body.calendar_id} does not exist in your company`,
          },
        ]);
      }
      throw error;
    }
    const created = await this.people.create({
      userId,
      calendarId: body.calendar_id,
      effectiveFrom: body.effective_from,
    });
    const row = (await this.people.membershipsOf(userId)).find((membership) => membership.id === created.id);
    if (!row) {
      throw new Error(`membership ${created.id} vanished after its insert`);
    }
    return row;
  }

  async leave(userId: number, membershipId: number): Promise<void> {
    const membership = await this.people.get(membershipId);
    if (membership.userId !== userId) {
      throw new ResourceNotFoundError(`Calendar membership ${membershipId} of user ${userId}`);
    }
    await this.people.delete(membership);
  }

  /** For the planner's look-up: each person's time zone, and their holidays in the period. */
  async forPlanner(
    userIds: readonly number[],
    period: { from: string; to: string } | null,
  ): Promise<{ timeZones: Record<string, string>; holidays: PersonHolidayRow[] }> {
    const [timeZones, holidays] = await Promise.all([
      this.people.timeZonesOf(userIds),
      period ? this.people.holidaysOf(userIds, period) : Promise.resolve([]),
    ]);
    return { timeZones, holidays };
  }
}
