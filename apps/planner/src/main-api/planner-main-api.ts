import { ForbiddenException, Injectable, UnauthorizedException } from '@nestjs/common';
import { MAX_IDS_PER_LOOKUP } from '@platform/contracts';
import { MainApiClient, MainApiRequestError, type CallerContext } from '@platform/main-api-client';
import type {
  MainApiCategory,
  MainApiHoliday,
  MainApiLabel,
  MainApiLeave,
  MainApiLookupsAnswer,
  MainApiLookupsQuery,
  MainApiPosition,
  MainApiProject,
  MainApiSchedule,
  MainApiUser,
  MainApiWorkingTimeEntry,
} from './main-api-records';

/** What main-api knows of the users and projects of one planner request, by id. */
export interface MainApiLookups {
  users: Map<number, MainApiUser>;
  projects: Map<number, MainApiProject>;
  /** Working weeks by user id; a user without any entry is absent. */
  weeks: Map<number, MainApiWorkingTimeEntry[]>;
  /** Leaves touching the period asked for, by user id. */
  leaves: Map<number, MainApiLeave[]>;
  /** The user labels those users carry, and those asked for by id that are user labels, by id. */
  labels: Map<number, MainApiLabel>;
  /** The company's current positions asked for, by id. */
  positions: Map<number, MainApiPosition>;
  /** The company's current position categories asked for, by id. */
  categories: Map<number, MainApiCategory>;
  /** The project of each task asked for that the company has, by task id. */
  taskProjects: Map<number, number>;
  /** Each user's IANA time zone. */
  timeZones: Map<number, string>;
  /** Each user's holidays in the period asked for (those of their calendar in force each day). */
  holidays: Map<number, MainApiHoliday[]>;
  /**
   * Each user's working weeks by first day, oldest first: those in force in the period asked for
   * (all of them without a period). Absent for a user without any, or from an older main-api.
   */
  schedules: Map<number, MainApiSchedule[]>;
  /** The people a group named (team, position, everyone), by id; otherwise the user ids asked for. */
  people: number[];
  /** The group has more people than one look-up answers (only the first, by id, are here). */
  peopleTruncated: boolean;
  /** main-api's revision of what it answered (its change-feed cursor), '' from an older main-api. */
  revision: string;
}

/** A group of people named instead of ids: a team's, a position's, or the whole company. */
export type PeopleGroup = { teamId: number } | { positionId: number } | { everyone: true };

export interface LookupRequest {
  userIds?: readonly number[];
  projectIds?: readonly number[];
  taskIds?: readonly number[];
  positionIds?: readonly number[];
  categoryIds?: readonly number[];
  labelIds?: readonly number[];
  /** Calendar days, both included: leaves are answered only with a period. */
  period?: { from: string; to: string };
  /** The people of a group, instead of `userIds` (at most 500; `peopleTruncated` says when more). */
  group?: PeopleGroup;
}

/**
 * Everything the planner asks main-api, as one batch look-up per request (`GET /v1/planner/lookups`):
 * users, projects, working weeks, leaves and labels together, whatever the number of users (ids are
 * split over more calls only beyond main-api's 500 per call). One call rather than one per kind of
 * data: each report waited for the slowest of five, each queued behind every other report's
 * (bench/README.md, round 4). Calls carry the caller's token, so main-api applies the caller's
 * company and permissions; another company's ids are simply absent from the answer.
 */
@Injectable()
export class PlannerMainApi {
  constructor(private readonly client: MainApiClient) {}

  async lookups(request: LookupRequest, caller: CallerContext): Promise<MainApiLookups> {
    if (request.group) {
      // A group is one call: positions and categories asked beside it ride along (at most 500 each).
      return this.lookupsOf([
        await this.lookupsCall(
          {
            ...groupQuery(request.group),
            ...request.period,
            ...(request.positionIds?.length && {
              position_ids: request.positionIds.slice(0, MAX_IDS_PER_LOOKUP).join(','),
            }),
            ...(request.categoryIds?.length && {
              category_ids: request.categoryIds.slice(0, MAX_IDS_PER_LOOKUP).join(','),
            }),
          },
          caller,
        ),
      ]);
    }
    const userChunks = chunksOf(request.userIds ?? []);
    const projectChunks = chunksOf(request.projectIds ?? []);
    const taskChunks = chunksOf(request.taskIds ?? []);
    const positionChunks = chunksOf(request.positionIds ?? []);
    const categoryChunks = chunksOf(request.categoryIds ?? []);
    const labelChunks = chunksOf(request.labelIds ?? []);
    const answers = await Promise.all(
      Array.from(
        {
          length: Math.max(
            userChunks.length,
            projectChunks.length,
            taskChunks.length,
            positionChunks.length,
            categoryChunks.length,
            labelChunks.length,
            1,
          ),
        },
        (_, index) =>
          this.lookupsCall(
            {
              ...(userChunks[index] && { user_ids: userChunks[index].join(',') }),
              ...(projectChunks[index] && { project_ids: projectChunks[index].join(',') }),
              ...(taskChunks[index] && { task_ids: taskChunks[index].join(',') }),
              ...(positionChunks[index] && { position_ids: positionChunks[index].join(',') }),
              ...(categoryChunks[index] && { category_ids: categoryChunks[index].join(',') }),
              ...(labelChunks[index] && { label_ids: labelChunks[index].join(',') }),
              ...(userChunks[index] && request.period),
            },
            caller,
          ),
      ),
    );
    return this.lookupsOf(answers);
  }

  private lookupsOf(answers: readonly MainApiLookupsAnswer[]): MainApiLookups {
    const lookups: MainApiLookups = {
      users: new Map(),
      projects: new Map(),
      weeks: new Map(),
      leaves: new Map(),
      labels: new Map(),
      positions: new Map(),
      categories: new Map(),
      taskProjects: new Map(),
      timeZones: new Map(),
      holidays: new Map(),
      schedules: new Map(),
      people: [],
      peopleTruncated: false,
      revision: '',
    };
    for (const answer of answers) {
      // Fields an older main-api does not answer (during a rolling deploy) read as empty.
      const newer = answer as Partial<MainApiLookupsAnswer> & {
        schedules?: Record<string, MainApiSchedule[]>;
      };
      lookups.people.push(...(newer.people ?? []));
      lookups.peopleTruncated ||= newer.people_truncated ?? false;
      // One per call: a later change of any call's part moves one of them.
      lookups.revision = [lookups.revision, newer.revision ?? ''].filter(Boolean).join('.');
      for (const [userId, schedules] of Object.entries(newer.schedules ?? {})) {
        lookups.schedules.set(Number(userId), schedules);
      }
      for (const user of answer.users) {
        lookups.users.set(user.id, user);
      }
      for (const project of answer.projects) {
        lookups.projects.set(project.id, project);
      }
      for (const [userId, entries] of Object.entries(answer.working_time)) {
        lookups.weeks.set(Number(userId), entries);
      }
      for (const leave of answer.leaves) {
        const leaves = lookups.leaves.get(leave.user_id);
        if (leaves) {
          leaves.push(leave);
        } else {
          lookups.leaves.set(leave.user_id, [leave]);
        }
      }
      for (const label of answer.labels) {
        lookups.labels.set(label.id, label);
      }
      // An older main-api answers no tasks (during a rolling deploy): the task then reads as unknown.
      for (const task of (answer.tasks as MainApiLookupsAnswer['tasks'] | undefined) ?? []) {
        lookups.taskProjects.set(task.id, task.project_id);
      }
      const timeZones = (answer.time_zones as MainApiLookupsAnswer['time_zones'] | undefined) ?? {};
      for (const [userId, zone] of Object.entries(timeZones)) {
        lookups.timeZones.set(Number(userId), zone);
      }
      // An older main-api answers neither (during a rolling deploy): the ids then read as unknown.
      for (const position of newer.positions ?? []) {
        lookups.positions.set(position.id, position);
      }
      for (const category of newer.categories ?? []) {
        lookups.categories.set(category.id, category);
      }
      for (const holiday of (answer.holidays as MainApiLookupsAnswer['holidays'] | undefined) ?? []) {
        const list = lookups.holidays.get(holiday.user_id);
        if (list) {
          list.push(holiday);
        } else {
          lookups.holidays.set(holiday.user_id, [holiday]);
        }
      }
    }
    return lookups;
  }

  /** Projects of the caller's company among `ids`; another company's ids are simply absent. */
  async projectsByIds(ids: readonly number[], caller: CallerContext): Promise<Map<number, MainApiProject>> {
    return (await this.lookups({ projectIds: ids }, caller)).projects;
  }

  private async lookupsCall(
    query: MainApiLookupsQuery,
    caller: CallerContext,
  ): Promise<MainApiLookupsAnswer> {
    try {
      return await this.client.request<MainApiLookupsAnswer>({
        method: 'GET',
        path: '/v1/planner/lookups',
        query,
        caller,
      });
    } catch (error) {
      throw asPlannerFailure(error);
    }
  }
}

function groupQuery(group: PeopleGroup): MainApiLookupsQuery {
  if ('teamId' in group) {
    return { team_id: group.teamId };
  }
  if ('positionId' in group) {
    return { position_id: group.positionId };
  }
  return { all_users: 'true' };
}

/** Distinct ids in groups of at most main-api's per-call limit. */
function chunksOf(ids: readonly number[]): number[][] {
  const unique = [...new Set(ids)];
  const chunks: number[][] = [];
  for (let start = 0; start < unique.length; start += MAX_IDS_PER_LOOKUP) {
    chunks.push(unique.slice(start, start + MAX_IDS_PER_LOOKUP));
  }
  return chunks;
}

/**
 * main-api refusing the caller (token expired between our check and its own, or a role main-api
 * does not let read) is the caller's 401/403; any other refusal means the planner asked wrongly,
 * which is our fault and stays a logged 500.
 */
function asPlannerFailure(error: unknown): unknown {
  if (error instanceof MainApiRequestError) {
    if (error.status === 401) {
      return new UnauthorizedException(error.upstreamMessage);
    }
    if (error.status === 403) {
      return new ForbiddenException(error.upstreamMessage);
    }
  }
  return error;
}
