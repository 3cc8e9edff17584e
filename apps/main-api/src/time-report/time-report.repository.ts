import { Injectable } from '@nestjs/common';
import { preparedStatementName, RequestTenantScope } from '@platform/database';
import {
  keyColumnsOf,
  type GroupKey,
  type LoggedPeriodRow,
  type TimeReportGrouping,
} from './time-report-groups';
import type { TimeReportGranularity } from './time-report-periods';

/** Which groups of which entries one page of the report reads. */
export interface LoggedHoursQuery {
  grouping: TimeReportGrouping;
  granularity: TimeReportGranularity;
  from: string;
  to: string;
  /** Only these people's entries (undefined: everyone's). */
  userIds?: readonly number[];
  /** Only these projects' entries (undefined: every project's). */
  projectIds?: readonly number[];
  /** The last group of the previous page. */
  after?: GroupKey;
  /** Groups with planned hours after `after`, in order, at most `count`: they join the page without entries. */
  plannedKeys: readonly GroupKey[];
  /** How many groups to read: the page's, and one more to know whether another page follows. */
  count: number;
}

interface Statement {
  text: string;
  name: string;
}

const COMPANY_PROJECTS = `SELECT project.id FROM projects project
 WHERE project.company_id = $1 AND project.deleted_at IS NULL
 ORDER BY project.id`;
const COMPANY_PROJECTS_NAME = preparedStatementName(COMPANY_PROJECTS);

/**
 * The report's one statement over `time_entries`, one text per grouping and filters present (twelve
 * at most, so each is prepared once per connection). The page's groups are the first `count` keys
 * after the cursor of those with entries that are not rejected (an index range of (company_id,
 * user_id, date) or (company_id, project_id, date) from the cursor on, read in key order) merged with
 * the planned keys; then each group's entries are summed by period, a lateral read per group of
 * its own index range (a hash join would read the whole company's range for one page). Rejected
 * entries count in no figure, so they are left out everywhere.
 *
 * Parameters: $1 company, $2 from, $3 to, $4 granularity, $5 count, $6.. the cursor's ids (0 for none:
 * ids start at 1), then the planned keys (one array per key column), then the filters present.
 */
function loggedHoursStatement(
  grouping: TimeReportGrouping,
  byPeople: boolean,
  byProjects: boolean,
): Statement {
  const columns = keyColumnsOf(grouping);
  let next = 6;
  const after = columns.map(() => `$${next++}::integer`);
  const plannedArrays = columns.map(() => `$${next++}::integer[]`);
  const filters = [
    ...(byPeople ? [` AND entry.user_id = ANY($${next++}::integer[])`] : []),
    ...(byProjects ? [` AND entry.project_id = ANY($${next++}::integer[])`] : []),
  ].join('');
  const keyList = columns.join(', ');
  const entryKeys = columns.map((column) => `entry.${column}`).join(', ');
  // The first column alone as an index bound; the row comparison then places the cursor exactly.
  const resume =
    columns.length === 1
      ? `entry.${columns[0]} > ${after[0]}`
      : `entry.${columns[0]} >= ${after[0]} AND (${entryKeys}) > (${after.join(', ')})`;
  const byUser = columns.includes('user_id');
  const byProject = columns.includes('project_id');
  const text = `WITH logged_keys AS (
  SELECT ${entryKeys}
    FROM time_entries entry
   WHERE entry.company_id = $1 AND entry.date BETWEEN $2::date AND $3::date
     AND entry.status <> 'rejected'${filters}
     AND ${resume}
   GROUP BY ${entryKeys}
   ORDER BY ${entryKeys}
   LIMIT $5::integer
), page AS (
  SELECT ${keyList} FROM logged_keys
  UNION
  SELECT ${keyList} FROM unnest(${plannedArrays.join(', ')}) AS planned(${keyList})
  ORDER BY ${keyList}
  LIMIT $5::integer
)
SELECT ${byUser ? 'page.user_id' : 'NULL::integer AS user_id'},
       ${byProject ? 'page.project_id' : 'NULL::integer AS project_id'},
       ${byUser ? 'person.first_name, person.last_name' : 'NULL AS first_name, NULL AS last_name'},
       ${byProject ? 'project.name' : 'NULL'} AS project_name,
       sums.period_key,
       coalesce(sums.logged_hours, '0') AS logged_hours,
       coalesce(sums.approved_hours, '0') AS approved_hours,
       coalesce(sums.billable_hours, '0') AS billable_hours
  FROM page
  LEFT JOIN LATERAL (
    SELECT date_trunc($4::text, entry.date::timestamp)::date::text AS period_key,
           sum(entry.hours)::text AS logged_hours,
           coalesce(sum(entry.hours) FILTER (WHERE entry.status = 'approved'), 0)::text AS approved_hours,
           coalesce(sum(entry.hours) FILTER (WHERE entry.billable), 0)::text AS billable_hours
      FROM time_entries entry
     WHERE entry.company_id = $1 AND ${columns.map((column) => `entry.${column} = page.${column}`).join(' AND ')}
       AND entry.date BETWEEN $2::date AND $3::date AND entry.status <> 'rejected'${filters}
     GROUP BY 1
  ) sums ON true
  ${byUser ? 'LEFT JOIN users person ON person.id = page.user_id AND person.company_id = $1' : ''}
  ${byProject ? 'LEFT JOIN projects project ON project.id = page.project_id AND project.company_id = $1' : ''}
 ORDER BY ${keyList.replace(/(\w+)/g, 'page.$1')}, sums.period_key`;
  return { text, name: preparedStatementName(text) };
}

/** The time report's reads, in the request's company (RequestTenantScope, row-level security behind it). */
@Injectable()
export class TimeReportRepository {
  private readonly statements = new Map<string, Statement>();

  constructor(private readonly scope: RequestTenantScope) {}

  /** Every project of the company that is not deleted, by id: the ones whose plan the report compares. */
  async companyProjectIds(): Promise<number[]> {
    const rows = await this.scope.sql.select<{ id: number }>(
      COMPANY_PROJECTS,
      [this.scope.companyId()],
      COMPANY_PROJECTS_NAME,
    );
    return rows.map((row) => row.id);
  }

  /** A page of groups, each with its entries summed by period (see `loggedHoursStatement`), by key. */
  loggedHours(query: LoggedHoursQuery): Promise<LoggedPeriodRow[]> {
    const byPeople = query.userIds !== undefined;
    const byProjects = query.projectIds !== undefined;
    const variant = `${query.grouping}|${byPeople}|${byProjects}`;
    const statement =
      this.statements.get(variant) ?? loggedHoursStatement(query.grouping, byPeople, byProjects);
    this.statements.set(variant, statement);
    const columns = keyColumnsOf(query.grouping);
    const values: unknown[] = [
      this.scope.companyId(),
      query.from,
      query.to,
      query.granularity,
      query.count,
      ...columns.map((_column, index) => query.after?.[index] ?? 0),
      ...columns.map((_column, index) => query.plannedKeys.map((key) => key[index])),
      ...(byPeople ? [query.userIds] : []),
      ...(byProjects ? [query.projectIds] : []),
    ];
    return this.scope.sql.select<LoggedPeriodRow>(statement.text, values, statement.name);
  }
}
