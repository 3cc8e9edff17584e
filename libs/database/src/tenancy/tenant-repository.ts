import type { PrincipalContext } from '@platform/auth';
import { RequestValidationError } from '@platform/runtime';
import type {
  DeepPartial,
  FindManyOptions,
  FindOptionsWhere,
  ObjectLiteral,
  QueryDeepPartialEntity,
  Repository,
  SelectQueryBuilder,
} from 'typeorm';
import { CompiledRead, type ShapeRead } from '../reads/compiled-read';

/** An entity that belongs to one company (docs/spec/decisions.md §2: every row carries its company). */
export interface CompanyOwned extends ObjectLiteral {
  id: number | string;
  companyId: number;
}

/**
 * The only way features read and write company data: every query gets the caller's
 * company from the verified token, so no call site can forget it. Another company's id is simply
 * not found, exactly like an id that does not exist.
 */
export class TenantRepository<Entity extends CompanyOwned> {
  constructor(
    private readonly repository: Repository<Entity>,
    private readonly principals: PrincipalContext,
  ) {}

  private scoped(where: FindOptionsWhere<Entity> = {}): FindOptionsWhere<Entity> {
    return { ...where, companyId: this.principals.companyId() };
  }

  findById(id: Entity['id']): Promise<Entity | null> {
    return this.repository.findOne({ where: this.scoped({ id } as FindOptionsWhere<Entity>) });
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
    return this.repository.find({ ...options, where: this.scoped(options.where) });
  }

  findAndCount(
    options: Omit<FindManyOptions<Entity>, 'where'> & { where?: FindOptionsWhere<Entity> } = {},
  ): Promise<[Entity[], number]> {
    return this.repository.findAndCount({ ...options, where: this.scoped(options.where) });
  }

  /** Saves a new row in the caller's company, whatever `companyId` the data carries. */
  create(data: DeepPartial<Entity>): Promise<Entity> {
    return this.repository.save({ ...data, companyId: this.principals.companyId() } as DeepPartial<Entity>);
  }

  /** Saves changes to a row read through this repository; refuses a row of another company. */
  async save(entity: Entity): Promise<Entity> {
    this.assertOwned(entity);
    return this.repository.save(entity as DeepPartial<Entity>);
  }

  /** Soft-deletes a row read through this repository (sets its `deleted_at`), returning it. */
  async softRemove(entity: Entity): Promise<Entity> {
    this.assertOwned(entity);
    return this.repository.softRemove(entity as DeepPartial<Entity>);
  }

  /** Deletes a row read through this repository for good (for rows without history). */
  async delete(entity: Entity): Promise<void> {
    this.assertOwned(entity);
    await this.repository.delete({ id: entity.id, companyId: entity.companyId } as FindOptionsWhere<Entity>);
  }

  /** Changes the caller's company's rows matching `where`; answers how many changed. */
  async updateWhere(
    where: FindOptionsWhere<Entity>,
    changes: QueryDeepPartialEntity<Entity>,
  ): Promise<number> {
    const result = await this.repository.update(this.scoped(where), changes);
    return result.affected ?? 0;
  }

  /** Deletes the caller's company's rows matching `where` for good; answers how many went. */
  async deleteWhere(where: FindOptionsWhere<Entity>): Promise<number> {
    const result = await this.repository.delete(this.scoped(where));
    return result.affected ?? 0;
  }

  private assertOwned(entity: Entity): void {
    if (entity.companyId !== this.principals.companyId()) {
      throw new Error('refusing to write a row of another company');
    }
  }

  /**
   * A read of the caller's company whose SQL is built once (see CompiledRead): `shape` adds joins,
   * conditions and order to a query already restricted to the company, naming its parameters, and
   * each call binds their values.
   */
  compile<Parameters extends Record<string, unknown>>(
    alias: string,
    parameterNames: readonly (keyof Parameters & string)[],
    shape: ShapeRead<Entity>,
  ): TenantRead<Entity, Parameters> {
    const read = new CompiledRead<Entity, Parameters & { tenantCompanyId: number }>(
      this.repository,
      alias,
      [...parameterNames, 'tenantCompanyId'],
      (query) => shape(query.where(`${alias}.company_id = :tenantCompanyId`)),
    );
    return {
      many: (parameters) => read.many({ ...parameters, tenantCompanyId: this.principals.companyId() }),
      one: (parameters) => read.one({ ...parameters, tenantCompanyId: this.principals.companyId() }),
      rows: <Row>(parameters: Parameters) =>
        read.rows<Row>({ ...parameters, tenantCompanyId: this.principals.companyId() }),
    };
  }

  /** A query builder already restricted to the caller's company. */
  queryBuilder(alias: string): SelectQueryBuilder<Entity> {
    return this.repository
      .createQueryBuilder(alias)
      .where(`${alias}.company_id = :tenantCompanyId`, { tenantCompanyId: this.principals.companyId() });
  }
}

/** A compiled read bound to the caller's company. */
export interface TenantRead<Entity, Parameters> {
  many(parameters: Parameters): Promise<Entity[]>;
  one(parameters: Parameters): Promise<Entity | null>;
  /** The rows as the statement answers them, for a shape that selects named values (`select(expr, name)`). */
  rows<Row>(parameters: Parameters): Promise<Row[]>;
}
