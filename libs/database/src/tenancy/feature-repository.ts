import type { ListQueryDto, Paginated } from '@platform/contracts';
import type { DeepPartial, EntityTarget, SelectQueryBuilder } from 'typeorm';
import type { FilterDefinitions } from '../lists/list-filters';
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
  list<Dto>(list: ListQueryDto, toDto: (entity: Entity) => Dto): Promise<Paginated<Dto> | Dto[]> {
    return this.rows.paginate(this.detailed(), this.feature.alias, list, this.feature.filters, toDto);
  }

  /** The row with this id, with its relations, or the feature's not-found error. */
  async get(id: number): Promise<Entity> {
    return this.found(
      id,
      this.feature.relations
        ? await this.rows.run(() => this.withId(id).getOne())
        : await this.rows.findById(id),
    );
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
    return this.rows.save(this.columnsOf(entity));
  }

  /**
   * Soft-deletes a row read here (entities with a `deleted_at`), answering it as it was read, with
   * what the deletion set (`deleted_at`, `updated_at`). The row passed in is left as it was.
   */
  async softRemove(entity: Entity): Promise<Entity> {
    const columns = this.columnsOf(entity);
    const removed = await this.rows.softRemove(columns === entity ? { ...entity } : columns);
    return { ...entity, ...removed };
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
