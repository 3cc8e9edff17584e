import { randomBytes } from 'node:crypto';
import {
  Column,
  DataSource,
  DeleteDateColumn,
  Entity,
  JoinColumn,
  ManyToOne,
  OneToMany,
  PrimaryGeneratedColumn,
  QueryFailedError,
  type EntityTarget,
  type ObjectLiteral,
  type SelectQueryBuilder,
} from 'typeorm';
import { createDatabase, databaseUrl, dropDatabase } from '../database-admin';
import { buildDataSourceOptions } from '../data-source-options';
import { preparedStatementName, readRows } from './read-rows';
import { CompiledRead, selectEntities, selectRaw } from './compiled-read';

@Entity({ name: 'owners' })
class Owner {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar' })
  name!: string;

  @DeleteDateColumn({ name: 'deleted_at', type: 'timestamptz' })
  deletedAt!: Date | null;

  @OneToMany(() => Item, (item) => item.owner)
  items?: Item[];

  @OneToMany(() => Label, (label) => label.owner)
  labels?: Label[];
}

@Entity({ name: 'labels' })
class Label {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ name: 'owner_id', type: 'integer' })
  ownerId!: number;

  @ManyToOne(() => Owner, (owner) => owner.labels)
  @JoinColumn({ name: 'owner_id' })
  owner?: Owner;

  @Column({ type: 'varchar' })
  text!: string;
}

@Entity({ name: 'items' })
class Item {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  @Column({ name: 'owner_id', type: 'integer', nullable: true })
  ownerId!: number | null;

  @ManyToOne(() => Owner, (owner) => owner.items)
  @JoinColumn({ name: 'owner_id' })
  owner?: Owner | null;

  @Column({ type: 'numeric', precision: 10, scale: 2 })
  price!: string;

  @Column({ type: 'integer', array: true, default: () => "'{}'" })
  tags!: number[];

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}

const adminUrl = process.env.TEST_DATABASE_URL ?? '';

describe('CompiledRead', () => {
  let database: { url: string; name: string };
  let dataSource: DataSource;

  const itemsOfCompany = (query: SelectQueryBuilder<Item>) =>
    query
      .leftJoinAndSelect('item.owner', 'owner')
      .where('item.company_id = :companyId')
      .andWhere('item.price >= :minimum')
      .orderBy('item.id', 'ASC');

  /**
   * A compiled read of `shape` and, to compare it with, the same query made by the query builder
   * with `parameters` set.
   */
  const readAndQuery = <Entity extends ObjectLiteral, Parameters extends Record<string, unknown>>(
    entity: EntityTarget<Entity>,
    alias: string,
    shape: (query: SelectQueryBuilder<Entity>) => SelectQueryBuilder<Entity>,
    parameters: Parameters,
  ) => ({
    read: new CompiledRead<Entity, Parameters>(
      dataSource.getRepository(entity),
      alias,
      Object.keys(parameters),
      shape,
    ),
    query: () => shape(dataSource.getRepository(entity).createQueryBuilder(alias)).setParameters(parameters),
  });

  beforeAll(async () => {
    const name = `t_compiled_${randomBytes(5).toString('hex')}`;
    await createDatabase(adminUrl, name);
    database = { name, url: databaseUrl(adminUrl, name) };
    dataSource = new DataSource({
      ...buildDataSourceOptions({
        url: database.url,
        schema: 'sample',
        applicationName: 'compiled-read-spec',
        entities: [Owner, Item, Label],
        migrations: [],
      }),
      synchronize: false,
    });
    await dataSource.initialize();
    await dataSource.query('CREATE SCHEMA sample');
    await dataSource.synchronize();
    const [kept, gone] = await dataSource
      .getRepository(Owner)
      .save([{ name: 'Kept' }, { name: 'Gone' }, { name: 'Empty' }]);
    await dataSource.getRepository(Owner).softRemove(gone);
    await dataSource.getRepository(Item).save([
      { companyId: 1, ownerId: kept.id, price: '10.50', tags: [1, 2] },
      { companyId: 1, ownerId: gone.id, price: '20.00', tags: [] },
      { companyId: 1, ownerId: null, price: '1.00', tags: [3] },
      { companyId: 2, ownerId: kept.id, price: '99.00', tags: [] },
    ]);
    await dataSource.getRepository(Label).save([
      { ownerId: kept.id, text: 'first' },
      { ownerId: kept.id, text: 'second' },
    ]);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await dropDatabase(adminUrl, database.name);
  });

  it('answers named values as rows, as getRawMany() does, with the statement prepared once', async () => {
    const pricesOfCompany = (query: SelectQueryBuilder<Item>) =>
      query
        .select('item.id', 'id')
        .addSelect('item.price::float8', 'price')
        .where('item.company_id = :companyId')
        .orderBy('item.id', 'ASC');
    const { read, query } = readAndQuery(Item, 'item', pricesOfCompany, { companyId: 1 });
    const expected = await query().getRawMany();

    const rows = await read.rows<{ id: number; price: number }>({ companyId: 1 });

    expect(rows).toEqual(expected);
    expect(rows.map((row) => row.price)).toEqual([10.5, 20, 1]);
    expect(await read.rows({ companyId: 2 })).toEqual([{ id: expect.any(Number), price: 99 }]);
  });

  it('answers exactly what the query builder answers, joins, soft deletes and types included', async () => {
    const { read, query } = readAndQuery(Item, 'item', itemsOfCompany, { companyId: 1, minimum: '5' });
    const expected = await query().getMany();

    const items = await read.many({ companyId: 1, minimum: '5' });

    expect(items).toEqual(expected);
    expect(items).toHaveLength(2);
    expect(items[0]).toBeInstanceOf(Item);
    expect(items[0].owner).toBeInstanceOf(Owner);
    expect(items[0].createdAt).toBeInstanceOf(Date);
    expect(items[0].tags).toEqual([1, 2]);
    // The soft-deleted owner is left out of the join, as the query builder does.
    expect(items[1].owner).toBeNull();
  });

  it('builds the statement once and binds new values on every call', async () => {
    const repository = dataSource.getRepository(Item);
    const build = jest.spyOn(repository, 'createQueryBuilder');
    const read = new CompiledRead<Item, { companyId: number; minimum: string }>(
      repository,
      'item',
      ['minimum', 'companyId'],
      itemsOfCompany,
    );

    const companyOne = await read.many({ companyId: 1, minimum: '0' });
    const companyTwo = await read.many({ companyId: 2, minimum: '0' });
    const none = await read.one({ companyId: 1, minimum: '1000' });

    expect(build).toHaveBeenCalledTimes(1);
    expect(companyOne.map((item) => item.price)).toEqual(['10.50', '20.00', '1.00']);
    expect(companyTwo.map((item) => item.price)).toEqual(['99.00']);
    expect(none).toBeNull();
    expect(read.sql()).toContain('"item"."company_id" = $');
    build.mockRestore();
  });

  it('groups the rows of a to-many join into one entity each, as getMany() does', async () => {
    const ownersWithItems = (query: SelectQueryBuilder<Owner>) =>
      query
        .leftJoinAndSelect('owner.items', 'item')
        .where('owner.name = :name')
        .orderBy('owner.id', 'ASC')
        .addOrderBy('item.id', 'ASC');
    const { read, query } = readAndQuery(Owner, 'owner', ownersWithItems, { name: 'Kept' });
    const expected = await query().getMany();

    const owners = await read.many({ name: 'Kept' });

    expect(owners).toEqual(expected);
    expect(owners).toHaveLength(1);
    expect(owners[0].items?.map((item) => item.price)).toEqual(['10.50', '99.00']);
  });

  it('maps two to-many joins, a to-one join below one of them and an empty one, as getMany() does', async () => {
    // Kept has 2 items x 2 labels (4 rows, each item and label repeated), Empty none.
    const ownersWithAll = (query: SelectQueryBuilder<Owner>) =>
      query
        .leftJoinAndSelect('owner.items', 'item')
        .leftJoinAndSelect('item.owner', 'itemOwner')
        .leftJoinAndSelect('owner.labels', 'label')
        .where('owner.name <> :name')
        .orderBy('owner.id', 'ASC')
        .addOrderBy('item.id', 'ASC')
        .addOrderBy('label.id', 'ASC');
    const { read, query } = readAndQuery(Owner, 'owner', ownersWithAll, { name: 'nobody' });
    const expected = await query().getMany();

    const owners = await read.many({ name: 'nobody' });

    expect(owners).toEqual(expected);
    await expect(selectEntities(query())).resolves.toEqual(expected);
    expect(owners.map((owner) => owner.name)).toEqual(['Kept', 'Empty']);
    expect(owners[0].items?.map((item) => item.price)).toEqual(['10.50', '99.00']);
    expect(owners[0].items?.[0]).toBeInstanceOf(Item);
    expect(owners[0].items?.[1].owner).toBeInstanceOf(Owner);
    expect(owners[0].labels?.map((label) => label.text)).toEqual(['first', 'second']);
    expect(owners[1]).toMatchObject({ items: [], labels: [] });
  });

  it('maps a partial selection as getMany() does: only the columns selected', async () => {
    const pricesWithOwnerNames = (query: SelectQueryBuilder<Item>) =>
      query
        .select(['item.id', 'item.price'])
        .leftJoin('item.owner', 'owner')
        .addSelect('owner.name')
        .where('item.company_id = :companyId')
        .orderBy('item.id', 'ASC');
    const { read, query } = readAndQuery(Item, 'item', pricesWithOwnerNames, { companyId: 1 });
    const expected = await query().getMany();

    const items = await read.many({ companyId: 1 });

    expect(items).toEqual(expected);
    expect(items[0]).toEqual(
      Object.assign(new Item(), {
        id: items[0].id,
        price: '10.50',
        owner: Object.assign(new Owner(), { name: 'Kept' }),
      }),
    );
  });

  it('refuses shapes it cannot reuse, with the reason', async () => {
    const repository = dataSource.getRepository(Item);
    const spread = new CompiledRead<Item, { ids: number[] }>(repository, 'item', ['ids'], (query) =>
      query.where('item.id IN (:...ids)'),
    );
    const fixed = new CompiledRead<Item, Record<string, never>>(repository, 'item', [], (query) =>
      query.where('item.id = :id', { id: 1 }),
    );
    const unused = new CompiledRead<Item, { companyId: number; other: number }>(
      repository,
      'item',
      ['companyId', 'other'],
      (query) => query.where('item.company_id = :companyId'),
    );

    await expect(spread.many({ ids: [1] })).rejects.toThrow();
    await expect(fixed.many({})).rejects.toThrow('a parameter has a fixed value');
    await expect(unused.many({ companyId: 1, other: 2 })).rejects.toThrow(
      'parameters not in the query: other',
    );
    const mapped = (query: SelectQueryBuilder<Item>) =>
      query.leftJoinAndMapOne('item.owner', Owner, 'mappedOwner', 'mappedOwner.id = item.owner_id');
    await expect(
      new CompiledRead<Item, Record<string, never>>(repository, 'item', [], mapped).many({}),
    ).rejects.toThrow('a join mapped to a property');
    // 56 characters: PostgreSQL's 63 fit the alias, not the alias and `_created_at`.
    const longAlias = 'item_with_an_alias_long_enough_that_created_at_passes_it';
    await expect(
      new CompiledRead<Item, Record<string, never>>(repository, longAlias, [], (query) => query).many({}),
    ).rejects.toThrow('use a shorter alias');
    // What a compiled read refuses, selectEntities leaves to getMany().
    await expect(selectEntities(mapped(repository.createQueryBuilder('item')))).resolves.toEqual(
      await mapped(repository.createQueryBuilder('item')).getMany(),
    );
  });

  it('selectEntities and selectRaw answer what getMany and getRawMany answer', async () => {
    const page = () =>
      itemsOfCompany(dataSource.getRepository(Item).createQueryBuilder('item'))
        .setParameters({ companyId: 1, minimum: '0' })
        .offset(1)
        .limit(2);
    const counting = itemsOfCompany(dataSource.getRepository(Item).createQueryBuilder('item'))
      .setParameters({ companyId: 1, minimum: '0' })
      .select('COUNT(*)', 'count')
      .orderBy();

    await expect(selectEntities(page())).resolves.toEqual(await page().getMany());
    await expect(selectRaw(counting)).resolves.toEqual([{ count: '3' }]);
    // skip/take need TypeORM's own two-pass read, which selectEntities leaves to getMany().
    await expect(selectEntities(page().offset(undefined).limit(undefined).skip(1).take(2))).resolves.toEqual(
      await page().offset(undefined).limit(undefined).skip(1).take(2).getMany(),
    );
  });
});

describe('readRows', () => {
  let database: { url: string; name: string };
  let dataSource: DataSource;

  const notesDataSource = (poolMax?: number) =>
    new DataSource(
      buildDataSourceOptions({
        url: database.url,
        schema: 'public',
        applicationName: 'read-rows-spec',
        entities: [],
        migrations: [],
        poolMax,
      }),
    );

  beforeAll(async () => {
    const name = `t_read_rows_${randomBytes(5).toString('hex')}`;
    await createDatabase(adminUrl, name);
    database = { name, url: databaseUrl(adminUrl, name) };
    dataSource = notesDataSource();
    await dataSource.initialize();
    await dataSource.query('CREATE TABLE notes (id serial PRIMARY KEY, body text NOT NULL)');
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await dropDatabase(adminUrl, database.name);
  });

  it('reads through the pool outside a transaction and through the transaction inside one', async () => {
    await dataSource.transaction(async (manager) => {
      await manager.query("INSERT INTO notes (body) VALUES ('uncommitted')");
      // Only the transaction's own connection sees its uncommitted row.
      await expect(readRows(manager, 'SELECT body FROM notes', [])).resolves.toEqual([
        { body: 'uncommitted' },
      ]);
      await expect(readRows(dataSource.manager, 'SELECT body FROM notes', [])).resolves.toEqual([]);
    });
    await expect(
      readRows(dataSource.manager, 'SELECT count(*)::int AS n FROM notes WHERE body = $1', ['uncommitted']),
    ).resolves.toEqual([{ n: 1 }]);
  });

  it('prepares a named statement once per connection and runs it again by name', async () => {
    const oneConnection = notesDataSource(1);
    await oneConnection.initialize();
    try {
      const text = 'SELECT count(*)::int AS n FROM notes WHERE body <> $1';
      const name = preparedStatementName(text);
      const prepared = () =>
        readRows<{ name: string; statement: string }>(
          oneConnection.manager,
          'SELECT name, statement FROM pg_prepared_statements',
          [],
        );
      await expect(prepared()).resolves.toEqual([]);

      await expect(readRows(oneConnection.manager, text, ['x'], name)).resolves.toEqual([{ n: 1 }]);
      await dataSource.query("INSERT INTO notes (body) VALUES ('second')");
      await expect(readRows(oneConnection.manager, text, ['x'], name)).resolves.toEqual([{ n: 2 }]);

      // One statement on the connection, under the name its text gives.
      await expect(prepared()).resolves.toEqual([{ name, statement: text }]);
      expect(preparedStatementName(`${text} `)).not.toBe(name);
    } finally {
      await oneConnection.destroy();
    }
  });

  it("fails with TypeORM's QueryFailedError, as manager.query does", async () => {
    const failure = await readRows(dataSource.manager, 'SELECT * FROM no_such_table', []).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(QueryFailedError);
    expect((failure as QueryFailedError).driverError).toMatchObject({ code: '42P01' });
  });
});
