import { ForbiddenException, Injectable, UnauthorizedException } from '@nestjs/common';
import { MAX_IDS_PER_LOOKUP } from '@platform/contracts';
import { MainApiClient, MainApiRequestError, type CallerContext } from '@platform/main-api-client';
import type {
  MainApiLabel,
  MainApiLeave,
  MainApiProject,
  MainApiUser,
  MainApiWorkingTimeEntry,
} from './main-api-records';

/** main-api's `filters` accept at most 100 values per key. */
const MAX_FILTER_VALUES = 100;

/**
 * Everything the planner asks main-api, as batch look-ups: one call per kind of data for a whole
 * project, whatever its number of users (ids are chunked only beyond main-api's per-call limits).
 * Calls carry the caller's token, so main-api applies the caller's company and permissions.
 */
@Injectable()
export class PlannerMainApi {
  constructor(private readonly client: MainApiClient) {}

  async usersByIds(ids: readonly number[], caller: CallerContext): Promise<Map<number, MainApiUser>> {
    const users = await this.inChunks(ids, MAX_IDS_PER_LOOKUP, (chunk) =>
      this.get<MainApiUser[]>('/v1/users', { ids: chunk.join(',') }, caller),
    );
    return new Map(users.map((user) => [user.id, user]));
  }

  /** Projects of the caller's company among `ids`; another company's ids are simply absent. */
  async projectsByIds(ids: readonly number[], caller: CallerContext): Promise<Map<number, MainApiProject>> {
    const projects = await this.inChunks(ids, MAX_FILTER_VALUES, (chunk) =>
      this.get<MainApiProject[]>(
        '/v1/projects',
        { page: 'false', filters: JSON.stringify({ id: chunk }) },
        caller,
      ),
    );
    return new Map(projects.map((project) => [project.id, project]));
  }

  /** Working weeks by user id; a user without any entry is absent. */
  async workingWeeks(
    userIds: readonly number[],
    caller: CallerContext,
  ): Promise<Map<number, MainApiWorkingTimeEntry[]>> {
    const weeks = await this.inChunks(userIds, MAX_IDS_PER_LOOKUP, async (chunk) =>
      Object.entries(
        await this.get<Record<string, MainApiWorkingTimeEntry[]>>(
          '/v1/working-time/company/with/users',
          { user_ids: chunk.join(',') },
          caller,
        ),
      ),
    );
    return new Map(weeks.map(([userId, entries]) => [Number(userId), entries]));
  }

  /** Leaves of those users touching [from, to] (calendar days, both included), by user id. */
  async leaves(
    userIds: readonly number[],
    period: { from: string; to: string },
    caller: CallerContext,
  ): Promise<Map<number, MainApiLeave[]>> {
    const leaves = await this.inChunks(userIds, MAX_IDS_PER_LOOKUP, (chunk) =>
      this.get<MainApiLeave[]>('/v1/user/leaves', { user_ids: chunk.join(','), ...period }, caller),
    );
    const byUser = new Map<number, MainApiLeave[]>();
    for (const leave of leaves) {
      byUser.set(leave.user_id, [...(byUser.get(leave.user_id) ?? []), leave]);
    }
    return byUser;
  }

  /** The company's user labels, by id. */
  async userLabels(caller: CallerContext): Promise<Map<number, MainApiLabel>> {
    const labels = await this.get<MainApiLabel[]>('/v1/categories/labels-model', { model: 'user' }, caller);
    return new Map(labels.map((label) => [label.id, label]));
  }

  private async get<T>(path: string, query: Record<string, string>, caller: CallerContext): Promise<T> {
    try {
      return await this.client.request<T>({ method: 'GET', path, query, caller });
    } catch (error) {
      throw asPlannerFailure(error);
    }
  }

  private async inChunks<T>(
    ids: readonly number[],
    size: number,
    fetchChunk: (chunk: number[]) => Promise<T[]>,
  ): Promise<T[]> {
    const unique = [...new Set(ids)];
    const chunks: number[][] = [];
    for (let start = 0; start < unique.length; start += size) {
      chunks.push(unique.slice(start, start + size));
    }
    return (await Promise.all(chunks.map(fetchChunk))).flat();
  }
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
