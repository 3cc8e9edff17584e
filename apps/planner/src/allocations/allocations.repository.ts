import { Injectable } from '@nestjs/common';
import { preparedStatementName, RequestTenantScope, type TenantRepository } from '@platform/database';
import {
  LessThanOrEqual,
  MoreThanOrEqual,
  Not,
  type DeepPartial,
  type FindOptionsWhere,
  type QueryDeepPartialEntity,
} from 'typeorm';
import { Allocation } from './allocation.entity';
import type { ReportedAllocation } from './project-allocations.report';

// getAllocations' two reads: fixed texts, so each pooled connection prepares them once
// (ScopedSql.select); PostgreSQL spent more CPU parsing and planning them than running them
// (bench/README.md, round 3). bench/baseline-server.mjs runs the same two statements.
// They select the report's input straight into named values: no entities (TypeORM's hydration and
// a Date parsed per row cost more than the rest of the read's own work in the planner), and the
// creation time already in the answer's form.
const REPORTED_COLUMNS = (alias: string): string =>
  `${alias}.id AS "id", ${alias}.user_id AS "userId", ${alias}.project_id AS "projectId",
          ${alias}.from_date AS "fromDate", ${alias}.to_date AS "toDate",
          ${alias}.allocated_hours::float8 AS "allocatedHours",
          to_char(${alias}.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') AS "createdAt"`;

// Both reads are of people's allocations only: the interface has no placeholders (issue 39).
const ON_PROJECT_SQL = `SELECT ${REPORTED_COLUMNS('allocation')}
     FROM planner.allocations allocation
    WHERE allocation.company_id = $1 AND allocation.project_id = $2 AND allocation.user_id IS NOT NULL
    ORDER BY allocation.from_date ASC, allocation.created_at ASC`;
const ON_PROJECT = preparedStatementName(ON_PROJECT_SQL);

// The other-project allocations of this project's users that share at least a day with the user's
// span here (first day to last day of their allocations on this project): one probe per user, not
// one per allocation. The overlap is written as the exclusion constraint's own daterange, so its
// GiST index answers it directly; PostgreSQL picked that index anyway for a per-allocation join,
// and 500 probes of it took 8 ms of PostgreSQL's time per read (bench/README.md, round 4).
// Allocations inside the span that touch none of the user's days here come along too; the report
// prorates each one against each allocation it intersects, so they count for nothing.
// The company is named in the span and in the outer read, one parameter for both: each reads the
// table on its own, and the conditions are what lets the company-led indexes serve them
// (row-level security keeps companies apart, not fast; docs/decisions.md, "Tenancy").
const ON_OTHER_PROJECTS_SQL = `SELECT ${REPORTED_COLUMNS('other')}
     FROM planner.allocations other
    INNER JOIN (SELECT span.user_id AS user_id, daterange(min(span.from_date), max(span.to_date), '[]') AS days
                  FROM planner.allocations span
                 WHERE span.company_id = $1 AND span.project_id = $2 AND span.user_id IS NOT NULL
                 GROUP BY span.user_id) here
       ON here.user_id = other.user_id AND daterange(other.from_date, other.to_date, '[]') && here.days
    WHERE other.company_id = $1 AND other.project_id <> $2`;
const ON_OTHER_PROJECTS = preparedStatementName(ON_OTHER_PROJECTS_SQL);

/** A day range of one user on one project, as the overlap look-up takes it. */
export interface AllocationSpan {
  userId: number;
  projectId: number;
  from: string;
  to: string;
}

/**
 * The allocations of the request's company (RequestTenantScope): every statement runs in its scope
 * (row-level security) and names the company in its SQL.
 */
@Injectable()
export class AllocationsRepository {
  private readonly allocations: TenantRepository<Allocation>;

  constructor(private readonly scope: RequestTenantScope) {
    this.allocations = scope.repository(Allocation);
  }

  companyId(): number {
    return this.scope.companyId();
  }

  /** The project's allocations, by first day then creation, as the report reads them. */
  onProjectOf(projectId: number): Promise<ReportedAllocation[]> {
    return this.scope.sql.select<ReportedAllocation>(
      ON_PROJECT_SQL,
      [this.scope.companyId(), projectId],
      ON_PROJECT,
    );
  }

  /** The allocations elsewhere of the project's users that may share a day with theirs here. */
  onOtherProjectsOf(projectId: number): Promise<ReportedAllocation[]> {
    return this.scope.sql.select<ReportedAllocation>(
      ON_OTHER_PROJECTS_SQL,
      [this.scope.companyId(), projectId],
      ON_OTHER_PROJECTS,
    );
  }

  // Recoverable: the service catches an overlap and reads what it overlaps (also inside a batch).
  create(columns: DeepPartial<Allocation>): Promise<Allocation> {
    return this.scope.recoverable(() => this.allocations.create(columns));
  }

  async findOne(where: FindOptionsWhere<Allocation>): Promise<Allocation | undefined> {
    const [found] = await this.allocations.find({ where, take: 1 });
    return found;
  }

  updateWhere(
    where: FindOptionsWhere<Allocation>,
    changes: QueryDeepPartialEntity<Allocation>,
  ): Promise<number> {
    return this.scope.recoverable(() => this.allocations.updateWhere(where, changes));
  }

  deleteWhere(where: FindOptionsWhere<Allocation>): Promise<number> {
    return this.allocations.deleteWhere(where);
  }

  /** The first allocation of the user on the project sharing a day with `span`, but `replacing`. */
  async firstOverlapping(span: AllocationSpan, replacing?: string): Promise<Allocation | null> {
    const [found] = await this.allocations.find({
      where: {
        userId: span.userId,
        projectId: span.projectId,
        fromDate: LessThanOrEqual(span.to),
        toDate: MoreThanOrEqual(span.from),
        ...(replacing ? { id: Not(replacing) } : {}),
      },
      order: { fromDate: 'ASC' },
      take: 1,
    });
    return found ?? null;
  }
}
