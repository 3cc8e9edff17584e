import type { ListQueryDto, ListAnswer } from '@platform/contracts';
import { assertWritePrecondition, requiredVersions } from '@platform/runtime';
import type { DeepPartial, EntityTarget, SelectQueryBuilder } from 'typeorm';
import type { FilterDefinitions } from '../lists/list-filters';
import type { SortDefinitions } from '../lists/list-order';
import type { CompanyOwned, TenantRepository } from './tenant-repository';
import type { TenantScope } from './tenant-scope';

/** What a feature's repository needs to know of its entity for the statements every feature has. */
export interface FeatureEntity<Entity extends CompanyOwned> {
  entity: EntityTarget<Entity>;
  /** The entity's alias in its queries: the filters' columns and the id condition are read on it. */
  alias: string;
  /** What the list may be filtered by (docs/spec/decisions.md §5). */
  filters: FilterDefinitions;
  /** The service's error for an id its company does not have (missing and another company's alike). */
  notFound: (id: number) => Error;
  /** Sort keys besides id, created_at and updated_at (key to a non-null column), e.g. `{ name: 'name' }`. */
  sorts?: SortDefinitions;
  /** Relations read with every row, list and `get` alike: property name to the alias it is joined as. */
  relations?: Readonly<Record<string, string>>;
}

/**
 * The statements every feature of company data has, once: its list, a row by id, a new row, changes
 * and a soft delete, all in the scope's company. A feature's repository extends it with its own
 * reads, reference checks and writes (`scope`, `rows` and `detailed` are there for them).
 */
export abstract class FeatureRepository<Entity extends CompanyOwned> {
  protected readonly rows: TenantRepository<Entity>;

  protected constructor(
    protected readonly scope: TenantScope,
    private readonly feature: FeatureEntity<Entity>,
  ) {
    this.rows = scope.repository(feature.entity);
  }

  /** The list helper (docs/spec/decisions.md §5) over the company's rows, relations included. */
  list<Dto>(list: ListQueryDto, toDto: (entity: Entity) => Dto): Promise<ListAnswer<Dto>> {
    return this.rows.paginate(
      this.detailed(),
      this.feature.alias,
      list,
      this.feature.filters,
      toDto,
      this.feature.sorts,
    );
  }

  /**
   * The row with this id, with its relations, or the feature's not-found error. When the request's
   * `If-Match` is about this row and names another version, the 412 (`ConditionalResource`): a write
   * that would change nothing is refused as one that would.
   */
  async get(id: number): Promise<Entity> {
    const entity = this.found(
      id,
      this.feature.relations
        ? await this.rows.run(() => this.withId(id).getOne())
        : await this.rows.findById(id),
    );
    this.assertVersion(entity);
    return entity;
  }

  /** Saves a new row in the scope's company. */
  create(data: DeepPartial<Entity>): Promise<Entity> {
    return this.rows.create(data);
  }

  /**
   * Saves the columns of a row read here. The relations read with it are left out of the write, so
   * a foreign key the caller changed is not overwritten by the related row read before, and to-many
   * relations (members) are not rewritten; the answer is the columns as saved.
   */
  save(entity: Entity): Promise<Entity> {
    const columns = this.columnsOf(entity);
    return this.isConditional(entity)
      ? this.underLock(entity, (rows) => rows.save(columns))
      : this.rows.save(columns);
  }

  /**
   * Soft-deletes a row read here (entities with a `deleted_at`), answering it as it was read, with
   * what the deletion set (`deleted_at`, `updated_at`). The row passed in is left as it was.
   */
  async softRemove(entity: Entity): Promise<Entity> {
    const columns = this.columnsOf(entity);
    const row = columns === entity ? { ...entity } : columns;
    const removed = this.isConditional(entity)
      ? await this.underLock(entity, (rows) => rows.softRemove(row))
      : await this.rows.softRemove(row);
    return { ...entity, ...removed };
  }

  /** Deletes a row read here for good (rows without history: time entries, transactions). */
  async delete(entity: Entity): Promise<void> {
    if (this.isConditional(entity)) {
      await this.underLock(entity, async (rows) => {
        await rows.delete(entity);
        return entity;
      });
      return;
    }
    await this.rows.delete(entity);
  }

  /** A query of the company's rows joined with the feature's relations; run it in the scope. */
  protected detailed(): SelectQueryBuilder<Entity> {
    const query = this.rows.queryBuilder(this.feature.alias);
    for (const [relation, alias] of Object.entries(this.feature.relations ?? {})) {
      query.leftJoinAndSelect(`${this.feature.alias}.${relation}`, alias);
    }
    return query;
  }

  /** `detailed()` narrowed to one id. */
  protected withId(id: number): SelectQueryBuilder<Entity> {
    return this.detailed().andWhere(`${this.feature.alias}.id = :id`, { id });
  }

  /** The row a read found, or the feature's not-found error for `id`. */
  protected found(id: number, entity: Entity | null | undefined): Entity {
    if (!entity) {
      throw this.feature.notFound(id);
    }
    return entity;
  }

  /** Whether the request's `If-Match` is about this row (see `ConditionalResource`). */
  private isConditional(entity: Entity): boolean {
    return requiredVersions(this.feature.entity, entity.id) !== undefined;
  }

  /** `write` in one transaction, after `assertVersionUnderLock` (the request's `If-Match`). */
  private underLock(
    entity: Entity,
    write: (rows: TenantRepository<Entity>) => Promise<Entity>,
  ): Promise<Entity> {
    return this.scope.transaction(async (unit) => {
      const rows = unit.repository(this.feature.entity);
      await rows.assertVersionUnderLock(entity as Entity & { version: number }, this.resourceName(entity));
      return write(rows);
    });
  }

  private assertVersion(entity: Entity): void {
    if (typeof entity.version === 'number') {
      assertWritePrecondition(this.feature.entity, entity.id, entity.version, this.resourceName(entity));
    }
  }

  private resourceName(entity: Entity): string {
    const target = this.feature.entity as { name?: string };
    return `${target.name ?? 'Resource'} ${String(entity.id)}`;
  }

  private columnsOf(entity: Entity): Entity {
    if (!this.feature.relations) {
      return entity;
    }
    const columns: Record<string, unknown> = { ...entity };
    for (const relation of Object.keys(this.feature.relations)) {
      delete columns[relation];
    }
    return columns as Entity;
  }
}
