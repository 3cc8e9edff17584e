import type { EntityManager, ObjectLiteral, QueryRunner, Repository, SelectQueryBuilder } from 'typeorm';
import type { Driver } from 'typeorm/driver/Driver.js';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata.js';
import type { EntityMetadata } from 'typeorm/metadata/EntityMetadata.js';
import type { RelationMetadata } from 'typeorm/metadata/RelationMetadata.js';
// Not re-exported by TypeORM's index, but part of its published files (`typeorm/*.js` in its
// package exports); it is the exact step `getMany()` uses to turn joined rows into entities.
import { RawSqlResultsToEntityTransformer } from 'typeorm/query-builder/transformer/RawSqlResultsToEntityTransformer.js';
import { preparedStatementName, readRows } from './read-rows';

/** Stands in for a parameter while the SQL is built, so its position in the statement can be found. */
const PLACEHOLDER = '\u0000compiled-read-parameter:';

export type ShapeRead<Entity extends ObjectLiteral> = (
  query: SelectQueryBuilder<Entity>,
) => SelectQueryBuilder<Entity>;

interface Compiled<Entity> {
  sql: string;
  preparedName: string;
  parameterOrder: string[];
  toEntities(rows: unknown[]): Entity[];
}

/**
 * A read whose SQL TypeORM builds once per process instead of on every call. Building a statement
 * with joins (aliases, column lists, soft-delete conditions) cost more CPU than running it on the
 * hot reads (bench/README.md); the statement only depends on the query's shape, and the values
 * travel as bind parameters, so the shape is built once with named parameters and then reused,
 * prepared once per pooled connection (`readRows`).
 * Rows become entities through the same transformer `getMany()` uses, so the result is what the
 * query builder would have returned.
 *
 * Limits, checked when the read is first used: every parameter is a single value (use
 * `= ANY(:ids)` rather than `IN (:...ids)`), and the entities have no after-load listeners,
 * subscribers or relation ids, which this path does not run.
 */
export class CompiledRead<Entity extends ObjectLiteral, Parameters extends Record<string, unknown>> {
  private compiled?: Compiled<Entity>;

  constructor(
    private readonly repository: Repository<Entity>,
    private readonly alias: string,
    private readonly parameterNames: readonly (keyof Parameters & string)[],
    private readonly shape: ShapeRead<Entity>,
  ) {}

  async many(parameters: Parameters): Promise<Entity[]> {
    const compiled = (this.compiled ??= this.compile());
    const rows = await this.run<unknown>(compiled, parameters);
    return rows.length === 0 ? [] : compiled.toEntities(rows);
  }

  /**
   * The rows as the statement answers them, without making entities: for a shape that selects
   * named values (`select('entry.user_id', 'user_id')`) straight into an answer, where building
   * entities first cost more than the read (bench/README.md, round 4).
   */
  rows<Row>(parameters: Parameters): Promise<Row[]> {
    return this.run<Row>((this.compiled ??= this.compile()), parameters);
  }

  private run<Row>(compiled: Compiled<Entity>, parameters: Parameters): Promise<Row[]> {
    return readRows<Row>(
      this.repository.manager,
      compiled.sql,
      compiled.parameterOrder.map((name) => parameters[name]),
      compiled.preparedName,
    );
  }

  async one(parameters: Parameters): Promise<Entity | null> {
    return (await this.many(parameters))[0] ?? null;
  }

  /** The statement as it runs (for tests and EXPLAIN). */
  sql(): string {
    return (this.compiled ??= this.compile()).sql;
  }

  private compile(): Compiled<Entity> {
    const query = this.shape(this.repository.createQueryBuilder(this.alias));
    query.setParameters(
      Object.fromEntries(this.parameterNames.map((name) => [name, `${PLACEHOLDER}${name}`])),
    );
    const [sql, values] = query.getQueryAndParameters();
    const parameterOrder = values.map((value: unknown) => {
      if (typeof value !== 'string' || !value.startsWith(PLACEHOLDER)) {
        throw new Error(`compiled read "${this.alias}": a parameter has a fixed value; name it instead`);
      }
      return value.slice(PLACEHOLDER.length);
    });
    const unused = this.parameterNames.filter((name) => !parameterOrder.includes(name));
    if (unused.length > 0) {
      throw new Error(`compiled read "${this.alias}": parameters not in the query: ${unused.join(', ')}`);
    }
    const unsupported = unsupportedBy(query);
    if (unsupported) {
      throw new Error(`compiled read "${this.alias}": ${unsupported}`);
    }
    return {
      sql,
      preparedName: preparedStatementName(sql),
      parameterOrder,
      toEntities: entityTransformer(query),
    };
  }
}

/**
 * `query.getMany()` with the statement run by `readRows`: for the dynamic reads (lists with
 * filters) whose SQL cannot be compiled once. A query this path cannot serve (skip/take, which
 * need TypeORM's two-pass read; entities with listeners, subscribers or relation ids) is simply
 * run by `getMany()`.
 */
export async function selectEntities<Entity extends ObjectLiteral>(
  query: SelectQueryBuilder<Entity>,
): Promise<Entity[]> {
  const { skip, take } = query.expressionMap;
  if (skip !== undefined || take !== undefined || unsupportedBy(query)) {
    return query.getMany();
  }
  const [sql, values] = query.getQueryAndParameters();
  const rows = await readRows<unknown>(managerOf(query), sql, values);
  return rows.length === 0 ? [] : entityTransformer(query)(rows);
}

/** `query.getRawMany()` with the statement run by `readRows`. */
export async function selectRaw<Row>(query: SelectQueryBuilder<ObjectLiteral>): Promise<Row[]> {
  const [sql, values] = query.getQueryAndParameters();
  return readRows<Row>(managerOf(query), sql, values);
}

/** The manager the query belongs to: its transaction's, when it was made inside one. */
function managerOf(query: SelectQueryBuilder<ObjectLiteral>): EntityManager {
  const runner = (query as unknown as { queryRunner?: QueryRunner }).queryRunner;
  return runner?.manager ?? query.dataSource.manager;
}

/** Why the rows of this query cannot be hydrated without TypeORM's full `getMany()`, if so. */
function unsupportedBy(query: SelectQueryBuilder<ObjectLiteral>): string | undefined {
  const metadatas = query.expressionMap.aliases
    .filter((alias) => alias.hasMetadata)
    .map((alias) => alias.metadata);
  if (
    !query.expressionMap.mainAlias ||
    query.dataSource.subscribers.length > 0 ||
    metadatas.some((metadata) => metadata.afterLoadListeners.length > 0 || metadata.relationIds.length > 0)
  ) {
    return 'no main alias, or listeners, subscribers or relation ids, which this path does not run';
  }
  return undefined;
}

/**
 * Turns the query's raw rows into its entities as `getMany()` does. When every join is to-one, each
 * row is one entity, and `toOneRowMapper` does the transformer's work with what it can work out
 * once; otherwise TypeORM's transformer does it. The transformer only caches what it derives from
 * the expression map, so one instance can serve every call of a query that no longer changes.
 */
function entityTransformer<Entity extends ObjectLiteral>(
  query: SelectQueryBuilder<Entity>,
): (rows: unknown[]) => Entity[] {
  const { expressionMap } = query;
  const mainAlias = expressionMap.mainAlias;
  if (!mainAlias) {
    throw new Error('a query without a main alias has no entities');
  }
  const transformer = new RawSqlResultsToEntityTransformer(expressionMap, query.dataSource.driver, []);
  const mapper = toOneRowMapper(query, transformer, mainAlias.name, mainAlias.metadata);
  if (mapper) {
    const driver = query.dataSource.driver;
    return (rows) => {
      const entities: Entity[] = [];
      for (const row of rows as Record<string, unknown>[]) {
        const entity = hydrate(mapper, row, driver);
        if (entity !== undefined) {
          entities.push(entity as Entity);
        }
      }
      return entities;
    };
  }
  return (rows) => transformer.transform(rows, mainAlias) as Entity[];
}

/** What one alias of a to-one-only query reads from a row: its columns, then its joined aliases. */
interface AliasMapper {
  metadata: EntityMetadata;
  columns: [key: string, column: ColumnMetadata][];
  joins: { relation: RelationMetadata; mapper: AliasMapper }[];
  onlyVirtualPrimaryColumns: boolean;
}

/**
 * The transformer's per-alias decisions (which columns under which keys, which joins belong to the
 * alias), made once. Undefined where the transformer does more than this covers: to-many or mapped
 * joins (rows must be grouped), inheritance, views, POJO results and relation ids.
 */
function toOneRowMapper(
  query: SelectQueryBuilder<ObjectLiteral>,
  transformer: RawSqlResultsToEntityTransformer,
  aliasName: string,
  metadata: EntityMetadata,
): AliasMapper | undefined {
  const { expressionMap } = query;
  if (
    metadata.discriminatorColumn ||
    metadata.childEntityMetadatas.length > 0 ||
    metadata.tableType === 'view' ||
    expressionMap.options.includes('create-pojo') ||
    expressionMap.relationIdAttributes.length > 0
  ) {
    return undefined;
  }
  const joins: AliasMapper['joins'] = [];
  for (const join of expressionMap.joinAttributes) {
    if (!join.metadata || !join.isSelected) {
      continue;
    }
    if (join.mapToProperty) {
      return undefined;
    }
    const relation = join.relation;
    if (
      !relation ||
      !metadata.relations.includes(relation) ||
      join.parentAlias !== aliasName ||
      join.relationPropertyPath !== relation.propertyPath
    ) {
      continue;
    }
    if (join.isMany) {
      return undefined;
    }
    const mapper = toOneRowMapper(query, transformer, join.alias.name, join.metadata);
    if (!mapper) {
      return undefined;
    }
    joins.push({ relation, mapper });
  }
  const columns = (
    transformer as unknown as {
      getColumnsToProcess(alias: string, metadata: EntityMetadata): [string, ColumnMetadata][];
    }
  ).getColumnsToProcess(aliasName, metadata);
  return {
    metadata,
    columns,
    joins,
    onlyVirtualPrimaryColumns: metadata.primaryColumns.every((column) => column.isVirtual),
  };
}

/** One row as one entity: the steps of the transformer's `transformRawResultsGroup` for one row. */
function hydrate(
  mapper: AliasMapper,
  row: Record<string, unknown>,
  driver: Driver,
): ObjectLiteral | undefined {
  const entity = mapper.metadata.create(undefined, { fromDeserializer: true, pojo: false }) as ObjectLiteral;
  let hasColumns = false;
  for (const [key, column] of mapper.columns) {
    const value = row[key];
    if (value === undefined) {
      continue;
    }
    if (value !== null && !column.isVirtualProperty) {
      hasColumns = true;
    }
    column.setEntityValue(entity, driver.prepareHydratedValue(value, column));
  }
  // A joined alias with nothing in the row is null on its parent, as getMany() answers.
  for (const { relation, mapper: joined } of mapper.joins) {
    relation.setEntityValue(entity, hydrate(joined, row, driver) ?? null);
  }
  if (hasColumns) {
    return entity;
  }
  return mapper.onlyVirtualPrimaryColumns && mapper.joins.length > 0 ? entity : undefined;
}
