import { Injectable } from '@nestjs/common';
import { CompiledRead, RequestTenantScope, type TenantRead, type TenantRepository } from '@platform/database';
import {
  DataSource,
  type DeepPartial,
  type FindOptionsWhere,
  type QueryDeepPartialEntity,
  type SelectQueryBuilder,
} from 'typeorm';
import { Allocation } from './allocation.entity';
import type { ReportedAllocation } from './project-allocations.report';

/**
 * What getAllocations reads of each allocation, selected straight into the report's input: no
 * entities (TypeORM's hydration and a Date parsed per row cost more than the rest of the read's
 * own work in the planner), and the creation time already in the answer's form.
 */
function selectReported(alias: string) {
  return (query: SelectQueryBuilder<Allocation>): SelectQueryBuilder<Allocation> =>
    query
      .select(`${alias}.id`, 'id')
      .addSelect(`${alias}.user_id`, 'userId')
      .addSelect(`${alias}.project_id`, 'projectId')
      .addSelect(`${alias}.from_date`, 'fromDate')
      .addSelect(`${alias}.to_date`, 'toDate')
      .addSelect(`${alias}.allocated_hours::float8`, 'allocatedHours')
      .addSelect(`to_char(${alias}.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS')`, 'createdAt');
}

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
  // getAllocations' two reads, built once (CompiledRead): building their SQL cost more CPU than
  // running it. Their text, and so their prepared names, are those measured in bench/README.md.
  private readonly onProject: TenantRead<Allocation, { projectId: number }>;
  private readonly onOtherProjects: CompiledRead<Allocation, { projectId: number; companyId: number }>;

  constructor(
    private readonly scope: RequestTenantScope,
    // Only to build the SQL of the other-projects read once; it runs in the scope (`read`).
    dataSource: DataSource,
  ) {
    this.allocations = scope.repository(Allocation);
    this.onProject = this.allocations.compile('allocation', ['projectId'], (query) =>
      selectReported('allocation')(query)
        .andWhere('allocation.project_id = :projectId')
        .orderBy('allocation.from_date', 'ASC')
        .addOrderBy('allocation.created_at', 'ASC'),
    );
    // The other-project allocations of this project's users that share at least a day with the
    // user's span here (first day to last day of their allocations on this project): one probe per
    // user, not one per allocation. The overlap is written as the exclusion constraint's own
    // daterange, so its GiST index answers it directly; PostgreSQL picked that index anyway for
    // a per-allocation join, and 500 probes of it took 8 ms of PostgreSQL's time per read (bench/README.md,
    // round 4). Allocations inside the span that touch none of the user's days here come along
    // too; the report prorates each one against each allocation it intersects, so they count for
    // nothing.
    // The company is named twice (the span and the outer read), as one parameter: built here rather
    // than by the tenant repository's `compile`, whose own company parameter is not ours to name.
    this.onOtherProjects = new CompiledRead(
      dataSource.getRepository(Allocation),
      'other',
      ['projectId', 'companyId'],
      (query) =>
        selectReported('other')(query.where('other.company_id = :companyId'))
          .innerJoin(
            (spans) =>
              spans
                .select('span.user_id', 'user_id')
                .addSelect("daterange(min(span.from_date), max(span.to_date), '[]')", 'days')
                .from(Allocation, 'span')
                .where('span.company_id = :companyId AND span.project_id = :projectId')
                .groupBy('span.user_id'),
            'here',
            "here.user_id = other.user_id AND daterange(other.from_date, other.to_date, '[]') && here.days",
          )
          .andWhere('other.project_id <> :projectId'),
    );
  }

  companyId(): number {
    return this.scope.companyId();
  }

  /** The project's allocations, by first day then creation, as the report reads them. */
  onProjectOf(projectId: number): Promise<ReportedAllocation[]> {
    return this.onProject.rows<ReportedAllocation>({ projectId });
  }

  /** The allocations elsewhere of the project's users that may share a day with theirs here. */
  onOtherProjectsOf(projectId: number): Promise<ReportedAllocation[]> {
    return this.scope.run(() =>
      this.onOtherProjects.rows<ReportedAllocation>({ projectId, companyId: this.scope.companyId() }),
    );
  }

  create(columns: DeepPartial<Allocation>): Promise<Allocation> {
    return this.allocations.create(columns);
  }

  async findOne(where: FindOptionsWhere<Allocation>): Promise<Allocation | undefined> {
    const [found] = await this.allocations.find({ where, take: 1 });
    return found;
  }

  updateWhere(
    where: FindOptionsWhere<Allocation>,
    changes: QueryDeepPartialEntity<Allocation>,
  ): Promise<number> {
    return this.allocations.updateWhere(where, changes);
  }

  deleteWhere(where: FindOptionsWhere<Allocation>): Promise<number> {
    return this.allocations.deleteWhere(where);
  }

  /** The first allocation of the user on the project sharing a day with `span`, but `replacing`. */
  firstOverlapping(span: AllocationSpan, replacing?: string): Promise<Allocation | null> {
    const query = this.allocations
      .queryBuilder('existing')
      .andWhere('existing.user_id = :userId AND existing.project_id = :projectId', span)
      .andWhere('existing.from_date <= :to AND existing.to_date >= :from', span)
      .andWhere(replacing ? 'existing.id <> :replacing' : 'TRUE', { replacing })
      .orderBy('existing.from_date');
    return this.allocations.run(() => query.getOne());
  }
}
