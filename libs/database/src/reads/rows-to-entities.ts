import type { Driver, EntityMetadata, ObjectLiteral, RelationMetadata, SelectQueryBuilder } from 'typeorm';

type ColumnMetadata = EntityMetadata['columns'][number];
type ExpressionMap = SelectQueryBuilder<ObjectLiteral>['expressionMap'];
type Row = Record<string, unknown>;

/** Turns the rows a query's statement answers into the entities `getMany()` would answer. */
export type RowsToEntities<Entity> = (rows: readonly unknown[]) => Entity[];

/** What one alias of the query reads from a row: its columns, then the aliases joined to it. */
interface AliasMapper {
  metadata: EntityMetadata;
  /** The row keys of its primary columns: rows with the same values are one entity. */
  primaryKeys: string[];
  columns: [key: string, column: ColumnMetadata][];
  joins: { relation: RelationMetadata; isMany: boolean; mapper: AliasMapper }[];
  onlyVirtualPrimaryColumns: boolean;
}

/**
 * How the rows of `query` become its entities, worked out once from the query's selections and the
 * entities' metadata (TypeORM's public API), with each row's columns hydrated by the driver as
 * `getMany()` does: rows that share an alias's primary key are one entity, a to-one join is the
 * joined entity or null, a to-many join the joined entities in row order. A query this does not
 * cover answers the reason instead: listeners or subscribers (which `getMany()` would run),
 * relation ids (extra statements), mapped joins, inheritance, views, plain-object
 * results, the `query` relation load strategy, or an alias whose column names are too long for the
 * driver (TypeORM then hashes them).
 */
export function rowsToEntities<Entity extends ObjectLiteral>(
  query: SelectQueryBuilder<Entity>,
): RowsToEntities<Entity> | string {
  const { expressionMap } = query;
  const main = expressionMap.mainAlias;
  if (!main?.hasMetadata) {
    return 'no main entity';
  }
  if (
    query.dataSource.subscribers.length > 0 ||
    expressionMap.aliases.some(
      (alias) =>
        alias.hasMetadata &&
        (alias.metadata.afterLoadListeners.length > 0 || alias.metadata.relationIds.length > 0),
    )
  ) {
    return 'listeners, subscribers or relation ids, which this path does not run';
  }
  if (
    expressionMap.relationIdAttributes.length > 0 ||
    expressionMap.relationLoadStrategy === 'query' ||
    expressionMap.options.includes('create-pojo')
  ) {
    return 'relation ids, relations loaded by query, or plain objects';
  }
  const mapper = aliasMapper(expressionMap, query.dataSource.driver, main.name, main.metadata);
  if (typeof mapper === 'string') {
    return mapper;
  }
  const driver = query.dataSource.driver;
  // Only a to-many join, or a join that is no relation, can repeat a row of the main entity: the
  // hot reads (to-one joins) skip the grouping.
  const grouped = expressionMap.joinAttributes.some((join) => !join.relation || join.isMany);
  return (rows) => entitiesOf(rows as readonly Row[], mapper, driver, grouped) as Entity[];
}

function aliasMapper(
  expressionMap: ExpressionMap,
  driver: Driver,
  aliasName: string,
  metadata: EntityMetadata,
): AliasMapper | string {
  if (
    metadata.discriminatorColumn ||
    metadata.childEntityMetadatas.length > 0 ||
    metadata.tableType === 'view'
  ) {
    return `${aliasName}: entity inheritance or a view`;
  }
  // The key TypeORM gives a column of an alias in the statement (DriverUtils.buildAlias), unless the
  // driver's limit makes it hash the name.
  const keyOf = (column: ColumnMetadata) => `${aliasName}_${column.databaseName}`;
  const tooLong = metadata.columns.find(
    (column) => keyOf(column).length > (driver.maxAliasLength ?? Infinity),
  );
  if (tooLong) {
    return `${aliasName}: "${keyOf(tooLong)}" is longer than the driver's aliases; use a shorter alias`;
  }
  const selections = new Set(expressionMap.selects.map((select) => select.selection));
  const columns = metadata.columns
    .filter(
      (column) =>
        !column.isVirtual &&
        (selections.has(aliasName) || selections.has(`${aliasName}.${column.propertyPath}`)),
    )
    .map((column): [string, ColumnMetadata] => [keyOf(column), column]);
  const joins: AliasMapper['joins'] = [];
  for (const join of expressionMap.joinAttributes) {
    if (!join.metadata || !join.isSelected) {
      continue;
    }
    if (join.mapToProperty) {
      return `${join.alias.name}: a join mapped to a property`;
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
    const mapper = aliasMapper(expressionMap, driver, join.alias.name, join.metadata);
    if (typeof mapper === 'string') {
      return mapper;
    }
    joins.push({ relation, isMany: join.isMany, mapper });
  }
  return {
    metadata,
    primaryKeys: metadata.primaryColumns.map(keyOf),
    columns,
    joins,
    onlyVirtualPrimaryColumns: metadata.primaryColumns.every((column) => column.isVirtual),
  };
}

/**
 * The alias's entities in `rows`, in the order they first appear. `grouped`: rows that share the
 * alias's primary key are one entity; otherwise (a statement whose joins cannot repeat a row of
 * the main alias) each row is one.
 */
function entitiesOf(
  rows: readonly Row[],
  mapper: AliasMapper,
  driver: Driver,
  grouped: boolean,
): ObjectLiteral[] {
  const entities: ObjectLiteral[] = [];
  for (const group of grouped ? groupsOf(rows, mapper) : rows.map((row) => [row])) {
    const entity = entityOf(group, mapper, driver);
    if (entity !== undefined) {
      entities.push(entity);
    }
  }
  return entities;
}

/** The rows of each entity of the alias; rows without the alias's primary key stay apart. */
function groupsOf(rows: readonly Row[], mapper: AliasMapper): Iterable<readonly Row[]> {
  if (rows.length === 0 || !mapper.primaryKeys.some((key) => key in rows[0])) {
    return rows.map((row) => [row]);
  }
  const groups = new Map<string, Row[]>();
  for (const row of rows) {
    const id = mapper.primaryKeys.map((key) => keyPart(row[key])).join('_');
    const group = groups.get(id);
    if (group) {
      group.push(row);
    } else {
      groups.set(id, [row]);
    }
  }
  return groups.values();
}

function keyPart(value: unknown): unknown {
  if (value instanceof Uint8Array) {
    return Buffer.from(value).toString('hex');
  }
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : value;
}

/**
 * One entity from the rows of it: its columns from the first row (they repeat in the others),
 * then its joins; undefined when the rows hold none of its columns (a left join that found nothing).
 */
function entityOf(rows: readonly Row[], mapper: AliasMapper, driver: Driver): ObjectLiteral | undefined {
  const entity = mapper.metadata.create(undefined, { fromDeserializer: true, pojo: false }) as ObjectLiteral;
  let hasColumns = false;
  for (const [key, column] of mapper.columns) {
    const value = rows[0][key];
    if (value === undefined) {
      continue;
    }
    if (value !== null && !column.isVirtualProperty) {
      hasColumns = true;
    }
    column.setEntityValue(entity, driver.prepareHydratedValue(value, column));
  }
  for (const { relation, isMany, mapper: joined } of mapper.joins) {
    // Every row of a to-one join's parent carries the same joined entity (or none: null).
    relation.setEntityValue(
      entity,
      isMany ? entitiesOf(rows, joined, driver, true) : (entityOf(rows, joined, driver) ?? null),
    );
  }
  if (hasColumns) {
    return entity;
  }
  // An entity whose primary key is only a relation has no columns of its own but is there.
  return mapper.onlyVirtualPrimaryColumns && mapper.joins.length > 0 ? entity : undefined;
}
