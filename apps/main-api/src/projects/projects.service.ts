import { Injectable, NotFoundException, UnprocessableEntityException } from '@nestjs/common';
import { PrincipalContext } from '@platform/auth';
import {
  isCalendarDate,
  PROJECT_STATUS_ALIASES,
  ProjectStatus,
  Role,
  type ListQueryDto,
  type Paginated,
} from '@platform/contracts';
import {
  paginate,
  TenantRepositoryFactory,
  type TenantRead,
  type FilterDefinitions,
  type TenantRepository,
} from '@platform/database';
import { RequestValidationError } from '@platform/runtime';
import { DataSource, In, Not, type EntityManager, type SelectQueryBuilder } from 'typeorm';
import { Brand } from '../brands/brand.entity';
import { Client } from '../clients/client.entity';
import { Contract } from '../contracts/contract.entity';
import { Fee } from '../fees/fee.entity';
import { TimeEntry } from '../hours/time-entry.entity';
import { PositionCategory } from '../positions/position-category.entity';
import { Position } from '../positions/position.entity';
import { Product } from '../products/product.entity';
import { Ratecard } from '../ratecards/ratecard.entity';
import { User } from '../users/user.entity';
import type { ProjectNameDto } from './dto/project-name.dto';
import { ProjectDetailDto, ProjectDto } from './dto/project.dto';
import type { CreateProjectDto, EstimateItemDto, UpdateProjectDto } from './dto/project-write.dto';
import { ProjectCategory, ProjectPosition } from './project-estimate-line.entities';
import {
  fetchLoggedHoursByPosition,
  fetchProjectTotals,
  projectFigures,
  summarizeProject,
} from './project-figures';
import { INCOME_TYPES, Project } from './project.entity';

const PROJECT_FILTERS: FilterDefinitions = {
  // Batch look-up by ids (the planner names other projects of its users in one call).
  id: { kind: 'integer', column: 'id' },
  client_id: { kind: 'integer', column: 'client_id' },
  status: {
    kind: 'enum',
    column: 'status',
    values: Object.values(ProjectStatus),
    aliases: PROJECT_STATUS_ALIASES,
  },
  archived: { kind: 'boolean', column: 'archived' },
  billable: { kind: 'boolean', column: 'billable' },
  brand_id: { kind: 'integer', column: 'brand_id' },
  product_id: { kind: 'integer', column: 'product_id' },
  pm_id: { kind: 'integer', column: 'pm_id' },
  income_type: { kind: 'enum', column: 'income_type', values: INCOME_TYPES },
  health: { kind: 'integer', column: 'health' },
  name: { kind: 'text', column: 'name' },
};

/** A project's id and name with its client's, and nothing else (`namesByIds`). */
function withClientName(query: SelectQueryBuilder<Project>): SelectQueryBuilder<Project> {
  return query
    .select(['project.id', 'project.name'])
    .leftJoin('project.client', 'client')
    .addSelect(['client.id', 'client.name'])
    .orderBy('project.id', 'ASC');
}

const SEARCH_LIMIT = 50;

/** Projects: who they are for, how they are estimated and how they earn (docs/spec/decisions.md §8, docs/spec/interfaces.md). */
@Injectable()
export class ProjectsService {
  private readonly projects: TenantRepository<Project>;
  // The reads of every project page view, built once (CompiledRead): building their SQL cost more
  // than running it (bench/README.md).
  private readonly projectById: TenantRead<Project, { id: number }>;
  private readonly ownClientProjectById: TenantRead<Project, { id: number; ownClientId: number }>;
  private readonly projectNamesByIds: TenantRead<Project, { ids: number[] }>;
  private readonly ownClientProjectNamesByIds: TenantRead<Project, { ids: number[]; ownClientId: number }>;
  private readonly estimatePositions: TenantRead<ProjectPosition, { projectId: number }>;
  private readonly estimateCategories: TenantRead<ProjectCategory, { projectId: number }>;

  constructor(
    private readonly repositories: TenantRepositoryFactory,
    private readonly principals: PrincipalContext,
    private readonly dataSource: DataSource,
  ) {
    this.projects = repositories.for(Project);
    this.projectById = this.projects.compile('project', ['id'], (query) =>
      withRelations(query, { ratecard: true }).andWhere('project.id = :id'),
    );
    this.ownClientProjectById = this.projects.compile('project', ['id', 'ownClientId'], (query) =>
      withRelations(query, { ratecard: true })
        .andWhere('project.id = :id')
        .andWhere('project.client_id = :ownClientId'),
    );
    this.projectNamesByIds = this.projects.compile('project', ['ids'], (query) =>
      withClientName(query).andWhere('project.id = ANY(:ids)'),
    );
    this.ownClientProjectNamesByIds = this.projects.compile('project', ['ids', 'ownClientId'], (query) =>
      withClientName(query).andWhere('project.id = ANY(:ids)').andWhere('project.client_id = :ownClientId'),
    );
    this.estimatePositions = repositories
      .for(ProjectPosition)
      .compile('line', ['projectId'], (query) =>
        query
          .leftJoinAndSelect('line.position', 'position')
          .andWhere('line.project_id = :projectId')
          .orderBy('line.id', 'ASC'),
      );
    this.estimateCategories = repositories
      .for(ProjectCategory)
      .compile('line', ['projectId'], (query) =>
        query.andWhere('line.project_id = :projectId').orderBy('line.id', 'ASC'),
      );
  }

  async create(body: CreateProjectDto): Promise<number> {
    const principal = this.principals.get();
    const draft = this.dataSource.getRepository(Project).create({
      companyId: principal.companyId,
      createdBy: principal.userId ?? null,
      name: body.name,
      clientId: body.client_id,
      brief: body.brief ?? '',
      status: ProjectStatus.Active,
      labels: [],
    });
    this.apply(draft, body);
    await this.validate(draft, body);
    return this.dataSource.transaction(async (manager) => {
      const saved = await manager.getRepository(Project).save(draft);
      await this.saveEstimates(manager, saved, body);
      return saved.id;
    });
  }

  async update(id: number, body: UpdateProjectDto): Promise<number> {
    const project = await this.requireProject(id);
    this.apply(project, body);
    await this.validate(project, body);
    await this.dataSource.transaction(async (manager) => {
      await manager
        .getRepository(Project)
        .save({ ...project, client: undefined, pm: undefined, ratecard: undefined });
      await this.saveEstimates(manager, project, body);
    });
    return id;
  }

  /** One round trip: the project, its estimate lines and its figures are read side by side. */
  async detail(id: number): Promise<ProjectDetailDto> {
    const companyId = this.principals.companyId();
    const manager = this.dataSource.manager;
    const [project, positions, categories, totals, logged] = await Promise.all([
      this.requireProject(id),
      this.estimatePositions.many({ projectId: id }),
      this.estimateCategories.many({ projectId: id }),
      fetchProjectTotals(manager, [id], companyId),
      fetchLoggedHoursByPosition(manager, id, companyId),
    ]);
    return ProjectDetailDto.fromDetail(
      project,
      positions,
      categories,
      projectFigures(project, totals.get(id), logged),
    );
  }

  async list(query: ListQueryDto): Promise<Paginated<ProjectDto> | ProjectDto[]> {
    const page = await paginate(
      await this.visible(),
      'project',
      query,
      PROJECT_FILTERS,
      (project) => project,
    );
    if (Array.isArray(page)) {
      return this.withFigures(page);
    }
    return { ...page, data: await this.withFigures(page.data) };
  }

  private async withFigures(projects: Project[]): Promise<ProjectDto[]> {
    const totals = await fetchProjectTotals(
      this.dataSource.manager,
      projects.map((project) => project.id),
      this.principals.companyId(),
    );
    return projects.map((project) =>
      ProjectDto.from(project, summarizeProject(project, totals.get(project.id))),
    );
  }

  /**
   * Id, name and client of those projects the caller may read, for the planner's reports: no
   * figures, which a list computes for every project and the planner never shows.
   */
  async namesByIds(ids: number[]): Promise<ProjectNameDto[]> {
    const ownClientId = await this.ownClientId();
    if (ownClientId === null) {
      return [];
    }
    const projects = await (ownClientId === undefined
      ? this.projectNamesByIds.many({ ids })
      : this.ownClientProjectNamesByIds.many({ ids, ownClientId }));
    return projects.map((project) => ({
      id: project.id,
      name: project.name,
      client: project.client ? { id: project.client.id, name: project.client.name } : null,
    }));
  }

  /** Case-insensitive "contains", at most 50, newest first. */
  async searchByName(name: string): Promise<ProjectDto[]> {
    const pattern = `%${name.replace(/[\\%_]/g, (match) => `\\${match}`)}%`;
    const projects = await (
      await this.visible()
    )
      .andWhere('project.name ILIKE :pattern', { pattern })
      .orderBy('project.id', 'DESC')
      .take(SEARCH_LIMIT)
      .getMany();
    return this.withFigures(projects);
  }

  async requireProject(id: number): Promise<Project> {
    const ownClientId = await this.ownClientId();
    const project =
      ownClientId === undefined
        ? await this.projectById.one({ id })
        : ownClientId === null
          ? null
          : await this.ownClientProjectById.one({ id, ownClientId });
    if (!project) {
      throw new NotFoundException(`Project ${id} not found`);
    }
    return project;
  }

  /**
   * The caller's projects: the whole company, except for role 6 (Client) users, who see only the
   * projects of their own client (docs/spec/decisions.md §2) and nothing when they have none.
   */
  private async visible() {
    const query = withRelations(this.projects.queryBuilder('project'), { ratecard: false });
    const ownClientId = await this.ownClientId();
    if (ownClientId === undefined) {
      return query;
    }
    return ownClientId === null
      ? query.andWhere('false')
      : query.andWhere('project.client_id = :ownClientId', { ownClientId });
  }

  /** For a role 6 (Client) user, their client's id (null without one); undefined for other roles. */
  private async ownClientId(): Promise<number | null | undefined> {
    const principal = this.principals.get();
    if (principal.roleId !== Role.Client) {
      return undefined;
    }
    const user = principal.userId ? await this.repositories.for(User).findById(principal.userId) : null;
    return user?.clientId ?? null;
  }

  /** Copies the fields sent onto the project; `ratecard_id` wins over `user_positions_header_id`. */
  private apply(project: Project, body: UpdateProjectDto): void {
    const ratecardId = body.ratecard_id ?? body.user_positions_header_id;
    Object.assign(project, {
      ...(body.name !== undefined && { name: body.name }),
      ...(body.client_id !== undefined && { clientId: body.client_id }),
      ...(body.brief !== undefined && { brief: body.brief }),
      ...(body.pm_id !== undefined && { pmId: body.pm_id }),
      ...(body.brand_id !== undefined && { brandId: body.brand_id }),
      ...(body.product_id !== undefined && { productId: body.product_id }),
      ...(body.template_id !== undefined && { templateId: body.template_id }),
      ...(body.health !== undefined && { health: body.health }),
      ...(body.status !== undefined && { status: body.status }),
      ...(body.start !== undefined && { start: body.start }),
      ...(body.end !== undefined && { end: body.end }),
      ...(body.archived !== undefined && { archived: body.archived }),
      ...(body.billable !== undefined && { billable: body.billable }),
      ...(body.labels !== undefined && { labels: body.labels }),
      ...(body.estimated_time !== undefined && { estimatedTime: String(body.estimated_time) }),
      ...(body.estimated_by_position !== undefined && { estimatedByPosition: body.estimated_by_position }),
      ...(body.estimation_by_categories !== undefined && {
        estimationByCategories: body.estimation_by_categories,
      }),
      ...(body.estimated_by_hourly_rates !== undefined && {
        estimatedByHourlyRates: body.estimated_by_hourly_rates,
      }),
      ...(ratecardId !== undefined && { userPositionsHeaderId: ratecardId }),
      ...(body.income_type !== undefined && { incomeType: body.income_type }),
      ...(body.fee_id !== undefined && { feeId: body.fee_id }),
      ...(body.contract_id !== undefined && { contractId: body.contract_id }),
      ...(body.estimated !== undefined && { estimated: String(body.estimated) }),
      ...(body.exchange !== undefined && { exchange: String(body.exchange) }),
      ...(body.currency_change_amount !== undefined && {
        currencyChangeAmount: String(body.currency_change_amount),
      }),
    });
  }

  /** References (400 naming the field) first, then the business rules (422 AC004). */
  private async validate(project: Project, body: UpdateProjectDto): Promise<void> {
    for (const field of ['start', 'end'] as const) {
      const value = project[field];
      if (value !== null && value !== undefined && !isCalendarDate(value)) {
        throw new RequestValidationError([
          { field, validation: 'isDate', message: `${field} must be a real calendar date` },
        ]);
      }
    }
    if (project.start && project.end && project.start > project.end) {
      throw new RequestValidationError([
        { field: 'end', validation: 'notBeforeStart', message: 'end must not be before start' },
      ]);
    }
    await this.repositories.for(Client).requireReference(project.clientId, 'client_id');
    await this.requireOptional(User, project.pmId, 'pm_id');
    await this.requireOfClient(Brand, project.brandId, 'brand_id', project.clientId);
    await this.requireOfClient(Product, project.productId, 'product_id', project.clientId);
    await this.requireOfClient(Fee, project.feeId, 'fee_id', project.clientId);
    await this.requireOfClient(Contract, project.contractId, 'contract_id', project.clientId);
    await this.requireOptional(
      Ratecard,
      project.userPositionsHeaderId,
      body.ratecard_id !== undefined ? 'ratecard_id' : 'user_positions_header_id',
    );

    if (project.estimatedByPosition && project.estimationByCategories) {
      throw new UnprocessableEntityException(
        'Only one time-estimation mode can be active: estimated_by_position or estimation_by_categories',
      );
    }
    switch (project.incomeType) {
      case 'fee':
        if (!project.feeId) {
          throw new UnprocessableEntityException('income_type fee needs fee_id');
        }
        break;
      case 'contract':
        if (!project.contractId) {
          throw new UnprocessableEntityException('income_type contract needs contract_id');
        }
        break;
      case 'one_time':
        if (project.estimated === null || project.estimated === undefined) {
          throw new UnprocessableEntityException(
            'income_type one_time needs estimated (the fixed monetary value)',
          );
        }
        break;
      case 'hourly_rate':
        if (!project.userPositionsHeaderId) {
          throw new UnprocessableEntityException('income_type hourly_rate needs a ratecard (ratecard_id)');
        }
        break;
      case null:
      case undefined:
        break;
    }
    await this.requireAll(Position, body.users_positions, 'users_positions');
    await this.requireAll(PositionCategory, body.categories, 'categories');
  }

  /**
   * Upserts the estimate lines sent. On update, a position already on the project and absent from
   * `users_positions` gets 0 estimated hours and is soft-deleted when no hours were logged against it
   * (docs/spec/interfaces.md). The project's estimated_time follows the active mode's sum.
   */
  private async saveEstimates(
    manager: EntityManager,
    project: Project,
    body: UpdateProjectDto,
  ): Promise<void> {
    const companyId = project.companyId;
    if (body.users_positions) {
      await this.upsertLines(
        manager,
        ProjectPosition,
        'positionId',
        project.id,
        companyId,
        body.users_positions,
      );
    }
    if (body.categories) {
      await this.upsertLines(manager, ProjectCategory, 'categoryId', project.id, companyId, body.categories);
    }
    const mode = project.estimatedByPosition
      ? ProjectPosition
      : project.estimationByCategories
        ? ProjectCategory
        : undefined;
    if (mode) {
      const [{ total }] = await manager.query<{ total: string | null }[]>(
        `SELECT sum(estimated_hours) AS total FROM ${mode === ProjectPosition ? 'project_positions' : 'project_categories'}
         WHERE project_id = $1 AND company_id = $2 AND deleted_at IS NULL`,
        [project.id, companyId],
      );
      await manager
        .getRepository(Project)
        .update({ id: project.id, companyId }, { estimatedTime: total ?? '0' });
    }
  }

  private async upsertLines(
    manager: EntityManager,
    entity: typeof ProjectPosition | typeof ProjectCategory,
    key: 'positionId' | 'categoryId',
    projectId: number,
    companyId: number,
    items: EstimateItemDto[],
  ): Promise<void> {
    const ids = items.map((item) => item.id);
    if (new Set(ids).size !== ids.length) {
      throw new RequestValidationError([
        {
          field: key === 'positionId' ? 'users_positions' : 'categories',
          validation: 'unique',
          message: 'each id at most once',
        },
      ]);
    }
    const repository = manager.getRepository<ProjectPosition | ProjectCategory>(entity);
    if (items.length > 0) {
      // One statement for every line sent (an existing line, even removed, is updated and restored).
      await repository
        .createQueryBuilder()
        .insert()
        .values(
          items.map((item) => ({
            companyId,
            projectId,
            [key]: item.id,
            estimatedHours: String(item.estimated_time ?? 0),
            deletedAt: null,
          })),
        )
        .orUpdate(
          ['estimated_hours', 'deleted_at'],
          ['project_id', key === 'positionId' ? 'position_id' : 'category_id'],
        )
        .execute();
    }
    // Lines absent from the list: no estimate any more; a position line is removed entirely
    // unless hours were logged against that position on this project.
    const absent = { projectId, companyId, ...(ids.length > 0 ? { [key]: Not(In(ids)) } : {}) };
    await repository.update(absent, { estimatedHours: '0' });
    if (key === 'categoryId') {
      await repository.softDelete(absent);
      return;
    }
    const logged = await manager
      .getRepository(TimeEntry)
      .createQueryBuilder('entry')
      .select('DISTINCT entry.user_position_id', 'position_id')
      .where(
        'entry.project_id = :projectId AND entry.company_id = :companyId AND entry.user_position_id IS NOT NULL',
        { projectId, companyId },
      )
      .getRawMany<{ position_id: number }>();
    const keep = [...ids, ...logged.map((row) => row.position_id)];
    await repository.softDelete({
      projectId,
      companyId,
      ...(keep.length > 0 ? { positionId: Not(In(keep)) } : {}),
    });
  }

  private async requireOptional(
    entity: typeof User | typeof Ratecard,
    id: number | null,
    field: string,
  ): Promise<void> {
    if (id) {
      await this.repositories.for<User | Ratecard>(entity).requireReference(id, field);
    }
  }

  private async requireOfClient(
    entity: typeof Brand | typeof Product | typeof Fee | typeof Contract,
    id: number | null,
    field: string,
    clientId: number,
  ): Promise<void> {
    if (!id) {
      return;
    }
    const row = await this.repositories
      .for<Brand | Product | Fee | Contract>(entity)
      .requireReference(id, field);
    if (row.clientId !== clientId) {
      throw new RequestValidationError([
        {
          field,
          validation: 'belongsToClient',
          message: `${field} ${id} does not belong to client ${clientId}`,
        },
      ]);
    }
  }

  private async requireAll(
    entity: typeof Position | typeof PositionCategory,
    items: EstimateItemDto[] | undefined,
    field: string,
  ): Promise<void> {
    const ids = (items ?? []).map((item) => item.id);
    if (ids.length === 0) {
      return;
    }
    const found = new Set(
      (
        await this.repositories
          .for<Position | PositionCategory>(entity)
          .find({ where: { id: In(ids) }, select: { id: true } })
      ).map((row) => row.id),
    );
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length > 0) {
      throw new RequestValidationError([
        { field, validation: 'exists', message: `${field}: ${missing.join(', ')} do not exist` },
      ]);
    }
  }
}

/**
 * A project with the fields of its relations that its read shape shows (ProjectDto), and the
 * ratecard for the detail. Only those columns: a list page of 50 spent more time reading, parsing
 * and collecting the relations' other columns (timestamps above all) than the projects' own.
 */
function withRelations(
  query: SelectQueryBuilder<Project>,
  { ratecard }: { ratecard: boolean },
): SelectQueryBuilder<Project> {
  const joined = query
    .leftJoin('project.client', 'client')
    .addSelect(['client.id', 'client.name', 'client.archived'])
    .leftJoin('project.pm', 'pm')
    .addSelect(['pm.id', 'pm.firstName', 'pm.lastName', 'pm.email', 'pm.roleId']);
  return ratecard
    ? joined
        .leftJoin('project.ratecard', 'ratecard')
        .addSelect([
          'ratecard.id',
          'ratecard.name',
          'ratecard.originalName',
          'ratecard.percent',
          'ratecard.currencyId',
          'ratecard.linkedToBasePrice',
        ])
    : joined;
}
