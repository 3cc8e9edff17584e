import {
  Column,
  DataSource,
  DeleteDateColumn,
  Entity,
  Index,
  PrimaryColumn,
  PrimaryGeneratedColumn,
  QueryFailedError,
} from 'typeorm';
import { buildDataSourceOptions } from '../data-source-options';
import { openSampleSchema, type SampleSchema } from '../testing/sample-schema';
import { enableRowLevelSecurity } from './row-level-security';
import { TenantScopes } from './tenant-scopes';

@Entity({ name: 'widgets' })
@Index('widgets_code_key', ['code'], { unique: true })
class Widget {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  @Column({ type: 'varchar' })
  code!: string;

  @Column({ type: 'integer', default: 0 })
  hours!: number;

  @Column({ type: 'varchar', default: 'kept' })
  note!: string;

  @DeleteDateColumn({ name: 'deleted_at', type: 'timestamptz' })
  deletedAt!: Date | null;
}

/** A link row: composite key, no `id`. */
@Entity({ name: 'links' })
class Link {
  @PrimaryColumn({ name: 'owner_id', type: 'integer' })
  ownerId!: number;

  @PrimaryColumn({ name: 'user_id', type: 'integer' })
  userId!: number;

  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;
}

const SCHEMA = 'sample';
const RUNTIME_ROLE = 'tenant_repository_spec_runtime';

describe('TenantRepository bulk writes, as the runtime role under row-level security', () => {
  let sample: SampleSchema;
  let owner: DataSource;
  let runtime: DataSource;
  let scopes: TenantScopes;

  /** All rows as the owner sees them (superuser: no policy applies), in a stable order. */
  const allWidgets = () =>
    owner.query<{ company_id: number; code: string; hours: number; note: string; deleted: boolean }[]>(
      `SELECT company_id, code, hours, note, deleted_at IS NOT NULL AS deleted FROM ${SCHEMA}.widgets ORDER BY code`,
    );
  const allLinks = () =>
    owner.query<{ company_id: number; owner_id: number; user_id: number }[]>(
      `SELECT company_id, owner_id, user_id FROM ${SCHEMA}.links ORDER BY owner_id, user_id`,
    );

  beforeAll(async () => {
    sample = await openSampleSchema('tenant_repository', [Widget, Link]);
    owner = sample.dataSource;
    // enableRowLevelSecurity keeps the runtime role off the service's migrations table.
    await owner.query(`CREATE TABLE ${SCHEMA}.migrations (id serial PRIMARY KEY)`);
    const runner = owner.createQueryRunner();
    try {
      await enableRowLevelSecurity(runner, {
        schema: SCHEMA,
        runtimeRole: RUNTIME_ROLE,
        tenantTables: ['widgets', 'links'],
        crossCompany: [{ table: 'widgets', purpose: 'authentication', commands: ['SELECT'] }],
      });
    } finally {
      await runner.release();
    }
    runtime = new DataSource(
      buildDataSourceOptions({
        url: (owner.options as { url: string }).url,
        schema: SCHEMA,
        applicationName: 'tenant-repository-spec',
        role: RUNTIME_ROLE,
        entities: [Widget, Link],
        migrations: [],
      }),
    );
    await runtime.initialize();
    scopes = new TenantScopes(runtime);
  });

  beforeEach(async () => {
    await owner.query(`TRUNCATE ${SCHEMA}.widgets, ${SCHEMA}.links`);
  });

  afterAll(async () => {
    await runtime?.destroy();
    await sample?.close();
  });

  it('runs as a role that row-level security applies to', async () => {
    await expect(runtime.query(`INSERT INTO widgets (company_id, code) VALUES (1, 'x')`)).rejects.toThrow(
      /row-level security/,
    );
  });

  describe('insertMany', () => {
    it("inserts every row in the scope's company, whatever company a row names", async () => {
      await scopes
        .forCompany(1)
        .repository(Widget)
        .insertMany([
          { code: 'a', hours: 1 },
          { code: 'b', companyId: 2 },
        ]);

      expect(await allWidgets()).toEqual([
        { company_id: 1, code: 'a', hours: 1, note: 'kept', deleted: false },
        { company_id: 1, code: 'b', hours: 0, note: 'kept', deleted: false },
      ]);
    });

    it('inserts nothing for no rows', async () => {
      await scopes.forCompany(1).repository(Widget).insertMany([]);

      expect(await allWidgets()).toEqual([]);
    });

    it('inserts all rows or none: one statement', async () => {
      await scopes
        .forCompany(1)
        .repository(Widget)
        .insertMany([{ code: 'a' }]);

      await expect(
        scopes
          .forCompany(1)
          .repository(Widget)
          .insertMany([{ code: 'b' }, { code: 'a' }]),
      ).rejects.toThrow(QueryFailedError);
      expect((await allWidgets()).map((row) => row.code)).toEqual(['a']);
    });
  });

  describe('insertMissing', () => {
    it("adds the rows not there yet, in the scope's company, and leaves the others", async () => {
      await scopes
        .forCompany(1)
        .repository(Link)
        .insertMany([{ ownerId: 5, userId: 1 }]);

      await scopes
        .forCompany(1)
        .repository(Link)
        .insertMissing([
          { ownerId: 5, userId: 1 },
          { ownerId: 5, userId: 2, companyId: 2 },
        ]);

      expect(await allLinks()).toEqual([
        { company_id: 1, owner_id: 5, user_id: 1 },
        { company_id: 1, owner_id: 5, user_id: 2 },
      ]);
    });
  });

  describe('upsert', () => {
    it('inserts new rows and overwrites the given columns of conflicting ones, restoring a soft-deleted row', async () => {
      const widgets = scopes.forCompany(1).repository(Widget);
      await widgets.insertMany([
        { code: 'a', hours: 1, note: 'first' },
        { code: 'b', hours: 2, note: 'second' },
      ]);
      await widgets.softDeleteWhere({ code: 'b' });
      await widgets.upsert([], ['code']);

      await widgets.upsert(
        [
          { code: 'b', hours: 20, deletedAt: null },
          { code: 'c', hours: 3, deletedAt: null },
        ],
        ['code'],
      );

      expect(await allWidgets()).toEqual([
        { company_id: 1, code: 'a', hours: 1, note: 'first', deleted: false },
        { company_id: 1, code: 'b', hours: 20, note: 'second', deleted: false },
        { company_id: 1, code: 'c', hours: 3, note: 'kept', deleted: false },
      ]);
    });

    it('never changes a conflicting row of another company: row-level security refuses the statement', async () => {
      await scopes
        .forCompany(2)
        .repository(Widget)
        .insertMany([{ code: 'a', hours: 1 }]);

      await expect(
        scopes
          .forCompany(1)
          .repository(Widget)
          .upsert([{ code: 'a', hours: 9, companyId: 2 }], ['code']),
      ).rejects.toThrow(/row-level security/);
      expect(await allWidgets()).toEqual([
        { company_id: 2, code: 'a', hours: 1, note: 'kept', deleted: false },
      ]);
    });
  });

  describe('softDeleteWhere and exists', () => {
    it("touch only the scope's company's rows", async () => {
      await scopes
        .forCompany(1)
        .repository(Widget)
        .insertMany([{ code: 'a' }]);
      await scopes
        .forCompany(2)
        .repository(Widget)
        .insertMany([{ code: 'b' }]);
      const first = scopes.forCompany(1).repository(Widget);

      expect(await first.exists({ code: 'b' })).toBe(false);
      expect(await first.softDeleteWhere({ code: 'b' })).toBe(0);
      expect(await first.softDeleteWhere({})).toBe(1);
      expect(await first.exists({ code: 'a' })).toBe(false);
      expect(await scopes.forCompany(2).repository(Widget).exists({ code: 'b' })).toBe(true);
      expect((await allWidgets()).map((row) => [row.code, row.deleted])).toEqual([
        ['a', true],
        ['b', false],
      ]);
    });
  });

  describe('TenantUnitOfWork.forCompany', () => {
    it('continues a cross-company transaction in the company it found, atomically', async () => {
      await scopes
        .forCompany(2)
        .repository(Widget)
        .insertMany([{ code: 'a', hours: 1 }]);

      await expect(
        scopes.acrossCompanies('authentication').transaction(async (unit) => {
          const [found] = await unit.sql.select<{ company_id: number }>(
            'SELECT company_id FROM widgets WHERE code = $1',
            ['a'],
          );
          const company = unit.forCompany(found.company_id);
          await company.repository(Widget).updateWhere({ code: 'a' }, { hours: 5 });
          await company.repository(Widget).insertMany([{ code: 'b' }]);
          expect(await company.repository(Widget).exists({ code: 'b' })).toBe(true);
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      expect(await allWidgets()).toEqual([
        { company_id: 2, code: 'a', hours: 1, note: 'kept', deleted: false },
      ]);

      await scopes.acrossCompanies('authentication').transaction(async (unit) => {
        await unit.forCompany(2).repository(Widget).updateWhere({ code: 'a' }, { hours: 5 });
      });
      expect((await allWidgets())[0].hours).toBe(5);
    });

    it('refuses to turn one company’s unit into another’s', async () => {
      await expect(
        scopes.forCompany(1).transaction(async (unit) => {
          await unit
            .forCompany(1)
            .repository(Widget)
            .insertMany([{ code: 'a' }]);
          unit.forCompany(2);
        }),
      ).rejects.toThrow(/cannot continue in another company/);
    });
  });
});
