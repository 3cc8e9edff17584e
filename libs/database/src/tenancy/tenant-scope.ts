import type { DataSource, EntityManager, EntityTarget } from 'typeorm';
import { managerOf } from './ambient-transaction';
import { ScopedSql } from './scoped-sql';
import { companyOf, runWithTenantSettings, type TenantSettings } from './tenant-context';
import { TenantRepository, type CompanyOwned } from './tenant-repository';

/** PostgreSQL's isolation levels, as `DataSource.transaction` takes them. */
export type IsolationLevel = 'READ UNCOMMITTED' | 'READ COMMITTED' | 'REPEATABLE READ' | 'SERIALIZABLE';

/**
 * The one way to company data: a scope knows its company (or, for the few workers that span
 * companies, its purpose) and every statement made through it tells PostgreSQL, transaction-locally,
 * so the tables' row-level security policies show and accept exactly that company's rows
 * (docs/decisions.md, "Tenancy"). A statement made around it gets no row.
 *
 * - `repository(Entity)`: reads and writes of one entity, also filtered by company in the SQL;
 * - `sql`: statements of the feature's own (`select` / `execute`);
 * - `transaction(work)`: one transaction in which `work` gets the same three, bound to it;
 * - `run(work)`: anything else (a TypeORM query builder of the feature's repository) in the scope.
 */
export class TenantScope {
  readonly sql: ScopedSql;

  constructor(
    protected readonly dataSource: DataSource,
    /** Read at each statement: a request's scope follows its principal. */
    private readonly settingsOf: () => TenantSettings,
  ) {
    this.sql = new ScopedSql(() => managerOf(dataSource), settingsOf);
  }

  /** The company of the scope; a cross-company scope has none and refuses. */
  companyId(): number {
    return companyOf(this.settingsOf());
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    return runWithTenantSettings(this.settingsOf(), work);
  }

  /**
   * Runs `work`, a write whose failure the caller catches and then goes on with more statements (an
   * overlap it describes with another read). Alone, that is all; inside a batch's transaction it is a
   * savepoint, so its failure does not abort the transaction for the statements after it.
   */
  recoverable<T>(work: () => Promise<T>): Promise<T> {
    const manager = managerOf(this.dataSource);
    return manager.queryRunner ? manager.transaction(() => work()) : work();
  }

  repository<Entity extends CompanyOwned>(entity: EntityTarget<Entity>): TenantRepository<Entity> {
    return new TenantRepository(() => managerOf(this.dataSource).getRepository(entity), this.settingsOf);
  }

  /** Runs `work` in one transaction of this scope: every statement of it carries the scope's settings. */
  transaction<T>(work: (unit: TenantUnitOfWork) => Promise<T>, isolation?: IsolationLevel): Promise<T> {
    const settings = this.settingsOf();
    // In an ambient transaction (a batch), a savepoint of it: PostgreSQL keeps the outer isolation.
    const manager = managerOf(this.dataSource);
    return runWithTenantSettings(settings, () =>
      isolation
        ? manager.transaction(isolation, (unit) => work(new TenantUnitOfWork(unit, settings)))
        : manager.transaction((unit) => work(new TenantUnitOfWork(unit, settings))),
    );
  }
}

/** A transaction of a scope: its repositories and SQL run on the transaction's connection. */
export class TenantUnitOfWork {
  readonly sql: ScopedSql;

  constructor(
    /**
     * The transaction's manager, for what has no company to scope by: creating a company
     * (provisioning).
     */
    readonly manager: EntityManager,
    private readonly settings: TenantSettings,
  ) {
    this.sql = new ScopedSql(
      () => manager,
      () => settings,
    );
  }

  companyId(): number {
    return companyOf(this.settings);
  }

  repository<Entity extends CompanyOwned>(entity: EntityTarget<Entity>): TenantRepository<Entity> {
    const repository = this.manager.getRepository(entity);
    return new TenantRepository(
      () => repository,
      () => this.settings,
    );
  }

  /**
   * This transaction, continued in the scope of `companyId`: a cross-company lookup (a token found
   * by its hash, row locked) has found whose rows these are, and the rest of the work is that
   * company's. Narrows only: a unit of one company cannot become another's.
   */
  forCompany(companyId: number): TenantUnitOfWork {
    if (this.settings.companyId !== undefined && this.settings.companyId !== companyId) {
      throw new Error('a unit of work of one company cannot continue in another company');
    }
    return new TenantUnitOfWork(this.manager, { companyId, changeOrigin: this.settings.changeOrigin });
  }
}
