import { Injectable } from '@nestjs/common';
import type { CallerContext } from '@platform/main-api-client';
import { dateOf, dayNumberOf } from '../allocations/calendar';
import { freeOf, periodsOf, type DayFigures } from '../availability/availability-series';
import { AvailabilityService, invalidQuery, windowOf } from '../availability/availability.service';
import type { MainApiUser } from '../main-api/main-api-records';
import { PlaceholdersService } from '../placeholders/placeholders.service';
import type {
  CandidateDto,
  CandidatesDto,
  CandidatesQueryDto,
  DemandDto,
  DemandGroupDto,
  DemandQueryDto,
} from './dto/staffing.dto';
import { StaffingRepository } from './staffing.repository';

const cents = (hours: number): number => Math.round(hours * 100);

interface GroupSums {
  unfilled: number[];
  filled: number[];
  available: number[];
}

/**
 * Who could fill a placeholder, and demand against supply (issue 39): both on the availability
 * read's figures (the one calculator, one main-api look-up), so a group's `supply_available` is the
 * sum of its people's `available` there, in hundredths of an hour.
 */
@Injectable()
export class StaffingService {
  constructor(
    private readonly staffing: StaffingRepository,
    private readonly availability: AvailabilityService,
    private readonly placeholders: PlaceholdersService,
  ) {}

  async candidates(id: string, query: CandidatesQueryDto, caller: CallerContext): Promise<CandidatesDto> {
    const placeholder = await this.placeholders.get(id);
    if ((query.from === undefined) !== (query.to === undefined)) {
      throw invalidQuery('from and to go together: give both or neither');
    }
    const span =
      query.from !== undefined && query.to !== undefined
        ? { from: query.from, to: query.to }
        : await this.staffing.placeholderSpan(id);
    if (!span) {
      throw invalidQuery(`placeholder ${id} books nothing yet: give from and to`);
    }
    const window = windowOf(span);
    const needed = await this.staffing.placeholderDays(id, window.from, window.to);
    const { people, days, lookups } = await this.availability.groupDays({ everyone: true }, window, caller);
    const includeTentative = query.include_tentative === 'true';
    const neededCents = needed.reduce((sum, day) => sum + cents(day.hours), 0);
    const first = dayNumberOf(window.from);
    const candidates: CandidateDto[] = [];
    for (const person of people) {
      const personDays = days.get(person.id) ?? [];
      let covered = 0;
      for (const day of needed) {
        const figures = personDays[day.day - first];
        covered += figures ? Math.min(freeOf(figures, includeTentative), cents(day.hours)) : 0;
      }
      if (covered === 0) {
        continue;
      }
      candidates.push({
        user_id: person.id,
        first_name: person.first_name,
        last_name: person.last_name,
        position_id: person.user_position_id,
        category_id: person.category_id,
        hours_covered: covered / 100,
        coverage: neededCents === 0 ? 0 : Math.round((covered / neededCents) * 10_000) / 10_000,
        reasons: {
          position_matched:
            placeholder.position_id !== null && person.user_position_id === placeholder.position_id,
          category_matched:
            placeholder.category_id !== null && person.category_id === placeholder.category_id,
          labels_matched: placeholder.label_ids.filter((label) => person.labels.includes(label)),
        },
      });
    }
    candidates.sort(
      (a, b) =>
        b.hours_covered - a.hours_covered ||
        Number(b.reasons.position_matched) - Number(a.reasons.position_matched) ||
        Number(b.reasons.category_matched) - Number(a.reasons.category_matched) ||
        b.reasons.labels_matched.length - a.reasons.labels_matched.length ||
        a.user_id - b.user_id,
    );
    return {
      placeholder_id: id,
      from: window.from,
      to: window.to,
      hours_needed: neededCents / 100,
      people: candidates.slice(0, query.limit),
      considered: people.length,
      truncated: lookups.peopleTruncated,
    };
  }

  async demand(query: DemandQueryDto, caller: CallerContext): Promise<DemandDto> {
    const window = windowOf(query);
    const groupBy = query.group_by ?? 'position';
    const granularity = query.granularity ?? 'week';
    const includeTentative = query.include_tentative === 'true';
    const range = { from: dayNumberOf(window.from), to: dayNumberOf(window.to) };
    const periods = periodsOf(range, granularity);
    const periodOf = new Map<number, number>();
    periods.forEach((period, index) => {
      for (let day = period.from; day <= period.to; day += 1) {
        periodOf.set(day, index);
      }
    });
    const unfilled = await this.staffing.unfilledByGroup(groupBy, window.from, window.to);
    const placeholderGroups = [...new Set(unfilled.map((row) => row.group_id))].filter(
      (groupId): groupId is number => groupId !== null,
    );
    const { people, days, lookups } = await this.availability.groupDays({ everyone: true }, window, caller, {
      ...(groupBy === 'position' ? { positionIds: placeholderGroups } : { categoryIds: placeholderGroups }),
    });
    const sums = new Map<number | null, GroupSums>();
    const names = new Map<number | null, string | null>([[null, null]]);
    const sumsOf = (groupId: number | null): GroupSums => {
      let group = sums.get(groupId);
      if (!group) {
        group = {
          unfilled: periods.map(() => 0),
          filled: periods.map(() => 0),
          available: periods.map(() => 0),
        };
        sums.set(groupId, group);
      }
      return group;
    };
    for (const row of unfilled) {
      sumsOf(row.group_id).unfilled[periodOf.get(row.day) as number] += cents(row.hours);
    }
    for (const person of people) {
      const groupId = groupOf(person, groupBy);
      names.set(groupId, groupBy === 'position' ? person.position_name : person.category_name);
      const group = sumsOf(groupId);
      for (const day of days.get(person.id) ?? []) {
        addDay(group, periodOf.get(day.day) as number, day, includeTentative);
      }
    }
    for (const [groupId, position] of lookups.positions) {
      if (groupBy === 'position') {
        names.set(groupId, position.name);
      }
    }
    for (const [groupId, category] of lookups.categories) {
      if (groupBy === 'category') {
        names.set(groupId, category.name);
      }
    }
    const groups: DemandGroupDto[] = [...sums.entries()]
      .sort(([a], [b]) => (a === null ? 1 : b === null ? -1 : a - b))
      .map(([groupId, group]) => ({
        id: groupId,
        name: names.get(groupId) ?? null,
        totals: {
          demand_unfilled: total(group.unfilled),
          demand_filled: total(group.filled),
          supply_available: total(group.available),
        },
        periods: periods.map((period, index) => ({
          from: dateOf(period.from),
          to: dateOf(period.to),
          demand_unfilled: group.unfilled[index] / 100,
          demand_filled: group.filled[index] / 100,
          supply_available: group.available[index] / 100,
        })),
      }));
    return {
      from: window.from,
      to: window.to,
      granularity,
      group_by: groupBy,
      include_tentative: includeTentative,
      groups,
      truncated: lookups.peopleTruncated,
    };
  }
}

function groupOf(person: MainApiUser, groupBy: 'position' | 'category'): number | null {
  return groupBy === 'position' ? person.user_position_id : person.category_id;
}

function addDay(group: GroupSums, index: number, day: DayFigures, includeTentative: boolean): void {
  const booked = day.confirmed + (includeTentative ? day.tentative : 0);
  group.filled[index] += booked;
  group.available[index] += day.capacity - booked;
}

function total(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / 100;
}
