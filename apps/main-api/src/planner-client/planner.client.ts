import { Inject, Injectable } from '@nestjs/common';
import { UpstreamUnavailableError } from '@platform/runtime';
import { request as httpRequest } from 'undici';
import { MAIN_API_ENV, type MainApiEnv } from '../config/main-api.env';

export type PlanGranularity = 'day' | 'week' | 'month';

/** One row of the planner's `GET /v2/reports/planned-hours`: a person's or placeholder's hours in a period. */
export interface PlannedHoursRow {
  project_id: number;
  /** The person booked; null for a placeholder's booking. */
  user_id: number | null;
  placeholder_id: string | null;
  /** The placeholder's role (null for a person: main-api knows people's positions). */
  position_id: number | null;
  category_id: number | null;
  period_start: string;
  confirmed_hours: number;
  tentative_hours: number;
}

export interface PlannedHoursQuery {
  projectIds: readonly number[];
  from: string;
  to: string;
  granularity: PlanGranularity;
}

/** The most project ids the planner takes in one call. */
export const PLANNED_HOURS_MAX_PROJECTS = 500;

/**
 * main-api's only call to the planner (issue 40): the planned hours of many projects, in one request
 * per 500 projects, with the caller's own token, so the planner applies the caller's company and
 * role as it does for the caller's own reads. The planner down or unconfigured is a 503 (the
 * platform's `upstream_unavailable`), never a forecast silently missing its plan.
 */
@Injectable()
export class PlannerClient {
  constructor(@Inject(MAIN_API_ENV) private readonly env: MainApiEnv) {}

  async plannedHours(query: PlannedHoursQuery, authorization: string): Promise<PlannedHoursRow[]> {
    const rows: PlannedHoursRow[] = [];
    for (let start = 0; start < query.projectIds.length; start += PLANNED_HOURS_MAX_PROJECTS) {
      const ids = query.projectIds.slice(start, start + PLANNED_HOURS_MAX_PROJECTS);
      rows.push(...(await this.plannedHoursOf(ids, query, authorization)));
    }
    return rows;
  }

  private async plannedHoursOf(
    projectIds: readonly number[],
    query: PlannedHoursQuery,
    authorization: string,
  ): Promise<PlannedHoursRow[]> {
    const baseUrl = this.env.PLANNER_URL;
    if (!baseUrl) {
      throw new UpstreamUnavailableError('planner', 'The planner is not configured (PLANNER_URL)');
    }
    const url = new URL(`${baseUrl.replace(/\/$/, '')}/v2/reports/planned-hours`);
    url.searchParams.set('project_ids', projectIds.join(','));
    url.searchParams.set('from', query.from);
    url.searchParams.set('to', query.to);
    url.searchParams.set('granularity', query.granularity);
    let response;
    try {
      response = await httpRequest(url, {
        headers: { authorization, accept: 'application/json' },
        signal: AbortSignal.timeout(this.env.PLANNER_TIMEOUT_MS),
      });
    } catch {
      throw new UpstreamUnavailableError('planner', 'The planner is unavailable; retry shortly');
    }
    if (response.statusCode !== 200) {
      const body = await response.body.text();
      // The caller's token is the planner's caller too: a refusal there is a fault here, not the caller's.
      throw new UpstreamUnavailableError(
        'planner',
        `The planner answered ${response.statusCode} to the planned hours: ${body.slice(0, 300)}`,
      );
    }
    const answer = (await response.body.json()) as { rows: PlannedHoursRow[] };
    return answer.rows;
  }
}
