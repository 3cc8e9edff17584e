import { hash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { entityIdsOf, isCalendarDate } from '@platform/contracts';
import type { CallerContext } from '@platform/main-api-client';
import { matchesAny } from '@platform/runtime';
import { AllocationError } from '../allocations/allocation.errors';
import { dateOf, dayNumberOf, type DayNumber, type DayRange } from '../allocations/calendar';
import { roundHours } from '../allocations/capacity';
import { calendarOfUser } from '../allocations/project-allocations.report';
import { AllocationsV2Service } from '../ledger/allocations-v2.service';
import { LedgerRepository } from '../ledger/ledger.repository';
import type { MainApiUser } from '../main-api/main-api-records';
import { PlannerMainApi, type MainApiLookups, type PeopleGroup } from '../main-api/planner-main-api';
import {
  figuresByDay,
  firstFit,
  freeOf,
  inHours,
  periodsOf,
  sumsByPeriod,
  totalOf,
  type BookedHours,
  type DayFigures,
} from './availability-series';
import {
  MAX_AVAILABILITY_DAYS,
  MAX_AVAILABILITY_PEOPLE,
  type AvailabilityCandidateDto,
  type AvailabilityDto,
  type AvailabilityQueryDto,
  type AvailabilitySearchDto,
  type AvailabilitySearchQueryDto,
  type ExplainedDayDto,
  type PersonAvailabilityDto,
} from './dto/availability.dto';

export const invalidQuery = (message: string) =>
  new AllocationError('InvalidAvailabilityQueryError', message);

/** A read's answer, or only its tag when the caller already holds it (304). */
export interface TaggedAvailability {
  etag?: string;
  answer?: AvailabilityDto;
}

export interface PeopleDays {
  lookups: MainApiLookups;
  people: MainApiUser[];
  days: Map<number, DayFigures[]>;
}

/**
 * Who is free, when (issue 38): each person's days from the one calculator (UserCalendar: the
 * schedule in force, holidays, approved leaves, in their zone) and the ledger's days, summed by
 * period in hundredths of an hour so that weeks, months and totals are exactly the sums of their
 * days. One main-api look-up per request (two when some allocations must first be planned again),
 * whatever the number of people and days.
 */
@Injectable()
export class AvailabilityService {
  constructor(
    private readonly mainApi: PlannerMainApi,
    private readonly ledger: LedgerRepository,
    private readonly allocations: AllocationsV2Service,
  ) {}

  async read(
    query: AvailabilityQueryDto,
    caller: CallerContext,
    ifNoneMatch?: string,
  ): Promise<TaggedAvailability> {
    const window = windowOf(query);
    const lookups = await this.mainApi.lookups({ ...peopleOf(query), period: window }, caller);
    const people = this.peopleIn(lookups);
    if (people.length > MAX_AVAILABILITY_PEOPLE || lookups.peopleTruncated) {
      throw invalidQuery(
        `the group has more than ${MAX_AVAILABILITY_PEOPLE} people: ask for them by user_ids, ` +
          `${MAX_AVAILABILITY_PEOPLE} at a time`,
      );
    }
    const userIds = people.map((person) => person.id);
    await this.allocations.planPeople(userIds, window.from, window.to, caller);
    // Tagged from the revisions of the inputs (main-api's and the plan's) before anything is
    // computed: a poll that holds the tag costs two small reads, and answers 304.
    const etag = lookups.revision ? await this.tagOf(query, lookups.revision) : undefined;
    if (etag && ifNoneMatch && matchesAny(ifNoneMatch, etag)) {
      return { etag };
    }
    const includeTentative = query.include_tentative === 'true';
    const granularity = query.granularity ?? 'day';
    const range = { from: dayNumberOf(window.from), to: dayNumberOf(window.to) };
    const { days } = await this.daysOf(lookups, people, range, window);
    const explained =
      query.explain === 'true' ? await this.explained(lookups, people, window, days) : undefined;
    const periods = periodsOf(range, granularity);
    // The same periods for everyone: their dates written once.
    const periodDates = periods.map((period) => ({ from: dateOf(period.from), to: dateOf(period.to) }));
    const answer: AvailabilityDto = {
      from: window.from,
      to: window.to,
      granularity,
      include_tentative: includeTentative,
      people: people.map((person): PersonAvailabilityDto => {
        const personDays = days.get(person.id) ?? [];
        const sums = sumsByPeriod(personDays, periods);
        return {
          ...identityOf(person, lookups),
          totals: inHours(totalOf(sums), includeTentative),
          series: sums.map((figures, index) => ({
            ...periodDates[index],
            ...inHours(figures, includeTentative),
          })),
          ...(explained && { days: explained.get(person.id) ?? [] }),
        };
      }),
    };
    return { etag, answer };
  }

  async search(query: AvailabilitySearchQueryDto, caller: CallerContext): Promise<AvailabilitySearchDto> {
    const window = windowOf(query);
    const group: PeopleGroup =
      query.position_id === undefined ? { everyone: true } : { positionId: query.position_id };
    const { lookups, people, days } = await this.groupDays(group, window, caller);
    const includeTentative = query.include_tentative === 'true';
    const wanted = query.label_ids ? entityIdsOf(query.label_ids) : [];
    const candidates: AvailabilityCandidateDto[] = [];
    for (const person of people) {
      const personDays = days.get(person.id) ?? [];
      const fit = firstFit(personDays, query.hours, includeTentative);
      if (!fit) {
        continue;
      }
      const free = personDays.reduce((sum, day) => sum + freeOf(day, includeTentative), 0);
      const { user_id, first_name, last_name, position_id } = identityOf(person, lookups);
      candidates.push({
        user_id,
        first_name,
        last_name,
        position_id,
        first_fit: { from: dateOf(fit.from), to: dateOf(fit.to) },
        reasons: {
          hours_free: free / 100,
          labels_matched: wanted.filter((label) => person.labels.includes(label)),
          position_matched: query.position_id === undefined || person.user_position_id === query.position_id,
        },
        totals: inHours(totalOf(personDays), includeTentative),
      });
    }
    candidates.sort(
      (a, b) =>
        b.reasons.labels_matched.length - a.reasons.labels_matched.length ||
        a.first_fit.to.localeCompare(b.first_fit.to) ||
        b.reasons.hours_free - a.reasons.hours_free ||
        a.user_id - b.user_id,
    );
    return {
      people: candidates.slice(0, query.limit),
      considered: people.length,
      truncated: lookups.peopleTruncated,
    };
  }

  /**
   * The figures of each day of the window of a group's current people (at most 500, the look-up's
   * `peopleTruncated` says when more): one look-up, the allocations to plan again planned, then the
   * booked days. What the search, the candidates of a placeholder and the demand read stand on.
   */
  async groupDays(
    group: PeopleGroup,
    window: { from: string; to: string },
    caller: CallerContext,
    also: { positionIds?: readonly number[]; categoryIds?: readonly number[] } = {},
  ): Promise<PeopleDays> {
    const lookups = await this.mainApi.lookups({ group, period: window, ...also }, caller);
    const people = this.peopleIn(lookups);
    await this.allocations.planPeople(
      people.map((person) => person.id),
      window.from,
      window.to,
      caller,
    );
    const range = { from: dayNumberOf(window.from), to: dayNumberOf(window.to) };
    return this.daysOf(lookups, people, range, window);
  }

  /** The current people the look-up answered, in name order. */
  private peopleIn(lookups: MainApiLookups): MainApiUser[] {
    return lookups.people
      .map((id) => lookups.users.get(id))
      .filter((user): user is MainApiUser => user !== undefined && !user.is_deleted)
      .sort(
        (a, b) =>
          a.last_name.localeCompare(b.last_name) || a.first_name.localeCompare(b.first_name) || a.id - b.id,
      );
  }

  private async daysOf(
    lookups: MainApiLookups,
    people: readonly MainApiUser[],
    range: DayRange,
    window: { from: string; to: string },
  ): Promise<PeopleDays> {
    const rows =
      people.length === 0
        ? []
        : await this.ledger.bookedDays(
            people.map((person) => person.id),
            window.from,
            window.to,
          );
    const booked = new Map<number, Map<DayNumber, BookedHours>>();
    for (const row of rows) {
      let byDay = booked.get(row.user_id);
      if (!byDay) {
        byDay = new Map();
        booked.set(row.user_id, byDay);
      }
      byDay.set(row.day, { confirmed: row.confirmed, tentative: row.tentative });
    }
    const days = new Map<number, DayFigures[]>();
    for (const person of people) {
      days.set(person.id, figuresByDay(calendarOfUser(lookups, person.id), range, booked.get(person.id)));
    }
    return { lookups, people: [...people], days };
  }

  /** Each day's figures with what made them: the schedule in force, holidays, leaves, bookings. */
  private async explained(
    lookups: MainApiLookups,
    people: readonly MainApiUser[],
    window: { from: string; to: string },
    days: Map<number, DayFigures[]>,
  ): Promise<Map<number, ExplainedDayDto[]>> {
    const rows =
      people.length === 0
        ? []
        : await this.ledger.bookingsOfDays(
            people.map((person) => person.id),
            window.from,
            window.to,
          );
    const bookings = new Map<string, ExplainedDayDto['allocations']>();
    for (const row of rows) {
      const key = `${row.user_id}:${row.date}`;
      const list = bookings.get(key) ?? [];
      list.push({
        allocation_id: row.allocation_id,
        project_id: row.project_id,
        status: row.status,
        hours: row.hours,
      });
      bookings.set(key, list);
    }
    const answer = new Map<number, ExplainedDayDto[]>();
    for (const person of people) {
      const calendar = calendarOfUser(lookups, person.id);
      answer.set(
        person.id,
        (days.get(person.id) ?? []).map((figures) => {
          const made = calendar.day(figures.day);
          const date = dateOf(figures.day);
          return {
            date,
            ...inHours(figures, false),
            schedule_from: made.scheduleFrom === null ? null : dateOf(made.scheduleFrom),
            holiday_names: made.holidayNames,
            leaves: made.leaves.map((leave) => ({ id: leave.id ?? null, hours: roundHours(leave.hours) })),
            allocations: bookings.get(`${person.id}:${date}`) ?? [],
          };
        }),
      );
    }
    return answer;
  }

  private async tagOf(query: AvailabilityQueryDto, mainApiRevision: string): Promise<string> {
    const plannerRevision = await this.ledger.revision();
    const inputs = JSON.stringify([
      query.user_ids ?? null,
      query.team_id ?? null,
      query.position_id ?? null,
      query.from,
      query.to,
      query.granularity ?? 'day',
      query.include_tentative ?? 'false',
      query.explain ?? 'false',
      mainApiRevision,
      plannerRevision,
      // In a scenario the planner's revision is the live cursor and the scenario's version, which
      // another scenario may share: its id tells their answers apart (live tags stay as they were).
      ...(query.scenario_id === undefined ? [] : [query.scenario_id.toLowerCase()]),
    ]);
    return `"av-${hash('sha1', inputs, 'base64url').slice(0, 22)}"`;
  }
}

/** The window's days, real and in order, at most MAX_AVAILABILITY_DAYS. */
export function windowOf(query: { from: string; to: string }): { from: string; to: string } {
  for (const field of ['from', 'to'] as const) {
    if (!isCalendarDate(query[field])) {
      throw invalidQuery(`${field} must be a real calendar date YYYY-MM-DD (${query[field]} is not)`);
    }
  }
  if (query.from > query.to) {
    throw invalidQuery(`from (${query.from}) must be on or before to (${query.to})`);
  }
  if (dayNumberOf(query.to) - dayNumberOf(query.from) + 1 > MAX_AVAILABILITY_DAYS) {
    throw invalidQuery(`the window spans at most ${MAX_AVAILABILITY_DAYS} days`);
  }
  return { from: query.from, to: query.to };
}

/** Exactly one of user_ids, team_id, position_id. */
function peopleOf(query: AvailabilityQueryDto): { userIds: number[] } | { group: PeopleGroup } {
  const named = [query.user_ids, query.team_id, query.position_id].filter((value) => value !== undefined);
  if (named.length !== 1) {
    throw invalidQuery('name the people by exactly one of user_ids, team_id or position_id');
  }
  if (query.user_ids !== undefined) {
    const userIds = entityIdsOf(query.user_ids);
    if (userIds.length > MAX_AVAILABILITY_PEOPLE) {
      throw invalidQuery(`user_ids names at most ${MAX_AVAILABILITY_PEOPLE} people`);
    }
    return { userIds };
  }
  return query.team_id !== undefined
    ? { group: { teamId: query.team_id } }
    : { group: { positionId: query.position_id as number } };
}

function identityOf(person: MainApiUser, lookups: MainApiLookups) {
  return {
    user_id: person.id,
    first_name: person.first_name,
    last_name: person.last_name,
    position_id: person.user_position_id ?? null,
    time_zone: lookups.timeZones.get(person.id) ?? 'UTC',
  };
}
