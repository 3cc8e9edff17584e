import { Injectable } from '@nestjs/common';
import { PrincipalContext } from '@platform/auth';
import { MAX_ENTITY_ID, Role } from '@platform/contracts';
import { FilterError } from '@platform/database';
import { ResourceNotFoundError } from '../errors/main-api.errors';
import type { ForecastGroupDto, ForecastGroupKeyDto, ForecastReportDto } from './dto/forecast-report.dto';
import type { ForecastReportQueryDto, ProjectForecastQueryDto } from './dto/forecast-query.dto';
import { projectForecast, type ForecastOptions, type ProjectForecast } from './forecast';
import { sumForecasts } from './forecast-groups';
import { ForecastInputReader } from './forecast-inputs';
import { assertCalendarDays, forecastRange } from './forecast-periods';
import { ForecastNotAllowedError } from './forecast.errors';
import { ForecastRepository, type ForecastGrouping, type GroupedProjectRow } from './forecast.repository';

const FORECAST_READERS = new Set<Role>([Role.CLevel, Role.Director, Role.ProjectManager]);
const DEFAULT_GROUPS_PER_PAGE = 20;

/** Project forecasts (actual + planned against the estimate) and their sums by client, project or manager. */
@Injectable()
export class ForecastsService {
  constructor(
    private readonly inputs: ForecastInputReader,
    private readonly forecasts: ForecastRepository,
    private readonly principals: PrincipalContext,
  ) {}

  /** One project's forecast; 404 for a project the company does not have (or deleted). */
  async projectForecast(
    projectId: number,
    query: ProjectForecastQueryDto,
    authorization: string,
  ): Promise<ProjectForecast> {
    this.assertMayRead();
    // A bad day is the caller's 400 before anything is read, whatever state the planner is in.
    assertCalendarDays(query);
    const today = utcToday();
    const [project] = await this.inputs.projectFacts([projectId]);
    if (!project) {
      throw new ResourceNotFoundError(`Project ${projectId}`);
    }
    const inputs = await this.inputs.inputsOf([project], today, authorization);
    return projectForecast(
      project,
      inputs.approved.get(project.id) ?? [],
      inputs.planned.get(project.id) ?? [],
      inputs.positions,
      {
        today,
        granularity: query.granularity ?? 'month',
        from: query.from,
        to: query.to,
        includeTentative: query.include_tentative === 'true',
      },
    );
  }

  /**
   * A page of groups, each the sum of its projects' forecasts over one range (this calendar year by
   * default), computed exactly as each project's own forecast is, with one planner call per page.
   */
  async report(query: ForecastReportQueryDto, authorization: string): Promise<ForecastReportDto> {
    this.assertMayRead();
    const today = utcToday();
    const granularity = query.granularity ?? 'month';
    const year = today.slice(0, 4);
    const range = forecastRange(query, { from: `${year}-01-01`, to: `${year}-12-31` }, granularity);
    const limit = query.limit ?? DEFAULT_GROUPS_PER_PAGE;
    const after = query.cursor === undefined ? undefined : cursorKey(query.cursor, query.group_by);
    const keys = await this.forecasts.groupKeys(query.group_by, query.filters, after, limit + 1);
    const page = keys.slice(0, limit);
    const rows = await this.forecasts.projectsOfGroups(query.group_by, query.filters, page);
    const facts = await this.inputs.projectFacts(rows.map((row) => row.id));
    const inputs = await this.inputs.inputsOf(facts, today, authorization);
    const options: ForecastOptions = {
      today,
      granularity,
      from: range.from,
      to: range.to,
      includeTentative: query.include_tentative === 'true',
    };
    const forecasts = new Map(
      facts.map((project) => [
        project.id,
        projectForecast(
          project,
          inputs.approved.get(project.id) ?? [],
          inputs.planned.get(project.id) ?? [],
          inputs.positions,
          options,
        ),
      ]),
    );
    const data = page.flatMap((key): ForecastGroupDto[] => {
      const projects = rows.filter((row) => keyOf(row, query.group_by) === key);
      // A project deleted between the reads is left out; so is a group left without any.
      const forecasted = projects.flatMap((row) => forecasts.get(row.id) ?? []);
      if (forecasted.length === 0) {
        return [];
      }
      return [
        {
          group_by: query.group_by,
          key: groupKeyOf(query.group_by, key, projects[0]),
          project_ids: forecasted.map((forecast) => forecast.project_id),
          ...sumForecasts(forecasted),
        },
      ];
    });
    const hasMore = keys.length > limit;
    return {
      data,
      next_cursor: hasMore ? encodeCursor(query.group_by, page.at(-1) ?? null) : null,
      has_more: hasMore,
    };
  }

  private assertMayRead(): void {
    if (!FORECAST_READERS.has(this.principals.get().roleId)) {
      throw new ForecastNotAllowedError();
    }
  }
}

function utcToday(): string {
  return new Date().toISOString().slice(0, 10);
}

function keyOf(row: GroupedProjectRow, groupBy: ForecastGrouping): number | null {
  switch (groupBy) {
    case 'client':
      return row.client_id;
    case 'project':
      return row.id;
    case 'pm':
      return row.pm_id;
  }
}

function groupKeyOf(
  groupBy: ForecastGrouping,
  key: number | null,
  row: GroupedProjectRow,
): ForecastGroupKeyDto {
  switch (groupBy) {
    case 'client':
      return { client_id: key ?? undefined, name: row.client_name };
    case 'project':
      return { project_id: key ?? undefined, name: row.name };
    case 'pm':
      return { pm_id: key, name: row.pm_name };
  }
}

/** The page's last key and its grouping, base64url JSON: opaque to callers. */
interface GroupCursor {
  group_by: ForecastGrouping;
  key: number | null;
}

function encodeCursor(groupBy: ForecastGrouping, key: number | null): string {
  const cursor: GroupCursor = { group_by: groupBy, key };
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

function cursorKey(raw: string, groupBy: ForecastGrouping): number | null {
  let cursor: Partial<GroupCursor> | null = null;
  try {
    cursor = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Partial<GroupCursor> | null;
  } catch {
    // Not JSON: refused below like any other cursor this route did not give.
  }
  const key = cursor?.key;
  const validKey = key === null || (Number.isInteger(key) && key! > 0 && key! <= MAX_ENTITY_ID);
  if (cursor?.group_by !== groupBy || key === undefined || !validKey) {
    throw new FilterError(
      'cursor',
      'cursor must be the next_cursor of a previous answer with the same group_by',
    );
  }
  return key;
}
