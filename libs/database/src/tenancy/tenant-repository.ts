import {
  assertWritePrecondition,
  requiredVersions,
  RequestValidationError,
  setWritePrecondition,
} from '@platform/runtime';
import type {
  DeepPartial,
  FindManyOptions,
  FindOptionsWhere,
  ObjectLiteral,
  QueryDeepPartialEntity,
  Repository,
  SelectQueryBuilder,
} from 'typeorm';
import { paginate } from '../lists/paginate';
import type { FilterDefinitions } from '../lists/list-filters';
import type { SortDefinitions } from '../lists/list-order';
import { companyOf, runWithTenantSettings, type TenantSettings } from './tenant-context';
import type { ListQueryDto, ListAnswer } from '@platform/contracts';

/**
 * An entity that belongs to one company (docs/spec/decisions.md §2: every row carries its company).
 * Link rows (team members, ratecard prices) have a composite key and no `id`: the by-id methods are
 * for the entities that have one.
 */
export interface CompanyOwned extends ObjectLiteral {
  id?: number | string;
  companyId: number;
}

/** A property of the entity; of any of them, where one repository serves entities of one shape. */
type PropertyOf<Entity> = Entity extends unknown ? keyof Entity & string : never;

/**
 * One entity's rows in a TenantScope: every statement runs with the scope's settings (row-level
 * security) and also names the company in its SQL, which keeps the company indexes in use. Another
 * company's id is simply not found, exactly like an id that does not exist.
 */
export class TenantRepository<Entity extends CompanyOwned> {
  constructor(
    /** Resolved per statement: inside a batch, the batch transaction's repository (`managerOf`). */
    private readonly repositoryOf: () => Repository<Entity>,
    private readonly settings: () => TenantSettings,
  ) {}

  private get repository(): Repository<Entity> {
    return this.repositoryOf();
  }

  private companyId(): number {
    return companyOf(this.settings());
  }

  private scoped(where: FindOptionsWhere<Entity> = {}): FindOptionsWhere<Entity> {
    return { ...where, companyId: this.companyId() };
  }

  /** Runs `work` (e.g. a query builder from `queryBuilder`) with the scope's settings. */
  run<T>(work: () => Promise<T>): Promise<T> {
    return runWithTenantSettings(this.settings(), work);
  }

  findById(id: Entity['id']): Promise<Entity | null> {
    return this.run(() =>
      this.repository.findOne({ where: this.scoped({ id } as FindOptionsWhere<Entity>) }),
    );
  }

  /**
   * The row a request body refers to by id (e.g. `client_id`), or the service's 400 naming that field:
   * an id of another company is as unknown as a missing one.
   */
  async requireReference(id: Entity['id'], field: string): Promise<Entity> {
    const entity = await this.findById(id);
    if (!entity) {
      throw new RequestValidationError([
        { field, validation: 'exists', message: `${field} ${String(id)} does not exist` },
      ]);
    }
    return entity;
  }

  find(
    options: Omit<FindManyOptions<Entity>, 'where'> & { where?: FindOptionsWhere<Entity> } = {},
  ): Promise<Entity[]> {
    return this.run(() => this.repository.find({ ...options, where: this.scoped(options.where) }));
  }

  findAndCount(
    options: Omit<FindManyOptions<Entity>, 'where'> & { where?: FindOptionsWhere<Entity> } = {},
  ): Promise<[Entity[], number]> {
    return this.run(() => this.repository.findAndCount({ ...options, where: this.scoped(options.where) }));
  }

  /** Saves a new row in the scope's company, whatever `companyId` the data carries. */
  create(data: DeepPartial<Entity>): Promise<Entity> {
    return this.run(() =>
      this.repository.save({ ...data, companyId: this.companyId() } as DeepPartial<Entity>),
    );
  }

  /** Saves changes to a row read through this repository; refuses a row of another company. */
  async save(entity: Entity): Promise<Entity> {
    this.assertOwned(entity);
    return this.run(() => this.repository.save(entity as DeepPartial<Entity>));
  }

  /** Soft-deletes a row read through this repository (sets its `deleted_at`), returning it. */
  async softRemove(entity: Entity): Promise<Entity> {
    this.assertOwned(entity);
    return this.run(() => this.repository.softRemove(entity as DeepPartial<Entity>));
  }

  /**
   * Where the request's `If-Match` is about this row (`ConditionalResource`): locks it (`FOR UPDATE`,
   * so call it in a transaction, before the write) and refuses with 412 unless its version is one
   * the request names and the one `entity` was read at. Of two writes based on one version, the
   * second waits here for the first to commit and is refused. Once met, the precondition is spent:
   * the route's answer reads the row at its new version. Without such an `If-Match`, nothing.
   */
  async assertVersionUnderLock(entity: Entity & { version: number }, resource: string): Promise<void> {
    const target = this.repository.target;
    if (requiredVersions(target, entity.id) === undefined) {
      return;
    }
    const [row] = await this.run(() =>
      this.repository.find({
        select: { id: true, version: true } as unknown as FindManyOptions<Entity>['select'],
        where: this.scoped({ id: entity.id } as FindOptionsWhere<Entity>),
        lock: { mode: 'pessimistic_write' },
      }),
    );
    const version = (row as { version?: number } | undefined)?.version ?? -1;
    // Read before another write committed: what was computed from that read is stale too.
    assertWritePrecondition(target, entity.id, version === entity.version ? version : -1, resource);
    // Met, under the lock: the request's later reads of the row (its answer) are no longer held to it.
    setWritePrecondition(undefined);
  }

  /** Deletes a row read through this repository for good (for rows without history). */
  async delete(entity: Entity): Promise<void> {
    this.assertOwned(entity);
    await this.run(() =>
      this.repository.delete({ id: entity.id, companyId: entity.companyId } as FindOptionsWhere<Entity>),
    );
  }

  /** Changes the scope's company's rows matching `where`; answers how many changed. */
  async updateWhere(
    where: FindOptionsWhere<Entity>,
    changes: QueryDeepPartialEntity<Entity>,
  ): Promise<number> {
    const result = await this.run(() => this.repository.update(this.scoped(where), changes));
    return result.affected ?? 0;
  }

  /** Deletes the scope's company's rows matching `where` for good; answers how many went. */
  async deleteWhere(where: FindOptionsWhere<Entity>): Promise<number> {
    const result = await this.run(() => this.repository.delete(this.scoped(where)));
    return result.affected ?? 0;
  }

  /** Soft-deletes the scope's company's rows matching `where` (sets their `deleted_at`); answers how many. */
  async softDeleteWhere(where: FindOptionsWhere<Entity>): Promise<number> {
    const result = await this.run(() => this.repository.softDelete(this.scoped(where)));
    return result.affected ?? 0;
  }

  /** Whether the scope's company has a row matching `where`. */
  exists(where: FindOptionsWhere<Entity>): Promise<boolean> {
    return this.run(() => this.repository.existsBy(this.scoped(where)));
  }

  /** Inserts the rows in one statement, each in the scope's company whatever `companyId` it carries. */
  async insertMany(rows: QueryDeepPartialEntity<Entity>[]): Promise<void> {
    await this.run(() => this.repository.insert(this.owned(rows)));
  }

  /**
   * Inserts the rows that are not there yet, in one statement (`ON CONFLICT DO NOTHING`): adding a
   * link row twice is no error. In the scope's company, like `insertMany`.
   */
  async insertMissing(rows: QueryDeepPartialEntity<Entity>[]): Promise<void> {
    await this.run(() =>
      this.repository.createQueryBuilder().insert().values(this.owned(rows)).orIgnore().execute(),
    );
  }

  /**
   * Inserts the rows, or where one conflicts with a row already there on `conflictPaths` (a unique
   * key), sets that row's other columns to the values given: one statement (`ON CONFLICT DO UPDATE`).
   * In the scope's company, like `insertMany`; a conflicting row of another company is refused by
   * row-level security, never changed.
   */
  async upsert(rows: QueryDeepPartialEntity<Entity>[], conflictPaths: PropertyOf<Entity>[]): Promise<void> {
    await this.run(() => this.repository.upsert(this.owned(rows), conflictPaths));
  }

  private owned(rows: QueryDeepPartialEntity<Entity>[]): QueryDeepPartialEntity<Entity>[] {
    const companyId = this.companyId();
    return rows.map((row) => ({ ...row, companyId }) as QueryDeepPartialEntity<Entity>);
  }

  private assertOwned(entity: Entity): void {
    if (entity.companyId !== this.companyId()) {
      throw new Error('refusing to write a row of another company');
    }
  }

  /**
   * A query builder already restricted to the company, for a list: run what it builds through
   * `paginate` (or `many` for a bounded search).
   */
  queryBuilder(alias: string): SelectQueryBuilder<Entity> {
    return this.repository
      .createQueryBuilder(alias)
      .where(`${alias}.company_id = :tenantCompanyId`, { tenantCompanyId: this.companyId() });
  }

  /** `query.getMany()` in the scope. */
  many(query: SelectQueryBuilder<Entity>): Promise<Entity[]> {
    return this.run(() => query.getMany());
  }

  /** The list helper (docs/spec/decisions.md §5) over a query of this repository, in the scope. */
  paginate<Dto>(
    query: SelectQueryBuilder<Entity>,
    alias: string,
    list: ListQueryDto,
    filters: FilterDefinitions,
    toDto: (entity: Entity) => Dto,
    sorts?: SortDefinitions,
  ): Promise<ListAnswer<Dto>> {
    return this.run(() => paginate(query, alias, list, filters, toDto, sorts));
  }
}
