import { COMMON_SORT_KEYS, type ListQueryDto } from '@platform/contracts';
import type { EntityMetadata, ObjectLiteral, SelectQueryBuilder } from 'typeorm';

type ColumnMetadata = EntityMetadata['columns'][number];
import { FilterError } from './list-filters';

/** Sort keys a resource allows besides `id`, `created_at` and `updated_at`: key to database column. */
export type SortDefinitions = Readonly<Record<string, string>>;

interface SortKey {
  key: string;
  column: ColumnMetadata;
  /** `alias.propertyPath`, as TypeORM orders by it (also with skip/take). */
  path: string;
  /** `alias.database_name`, for conditions. */
  sql: string;
  descending: boolean;
  /** A timestamp: its exact value (microseconds) is read back in SQL, JavaScript's Date keeps ms. */
  instant: boolean;
}

/**
 * The order of a list: the keys of `sort` (each ascending or `-` descending, from the resource's
 * allow-list), then `id`, so every order is total and a cursor can resume it exactly. Without
 * `sort`, the order the list had (its repository's, then `id`).
 */
export function orderOf<Entity extends ObjectLiteral>(
  query: SelectQueryBuilder<Entity>,
  alias: string,
  list: ListQueryDto,
  sorts: SortDefinitions = {},
): SortKey[] {
  const metadata = query.expressionMap.mainAlias!.metadata;
  const allowed = new Map<string, ColumnMetadata>();
  const byName = (name: string) =>
    metadata.findColumnsWithPropertyPath(name)[0] ??
    metadata.columns.find((column) => column.databaseName === name);
  for (const key of COMMON_SORT_KEYS) {
    const column = byName(key === 'id' ? 'id' : key);
    if (column) {
      allowed.set(key, column);
    }
  }
  for (const [key, name] of Object.entries(sorts)) {
    const column = byName(name);
    if (!column || column.isNullable) {
      throw new Error(`sort key ${key}: ${name} is not a non-null column of ${metadata.name}`);
    }
    allowed.set(key, column);
  }
  const keys: SortKey[] = [];
  for (const part of (list.sort ?? '').split(',').filter(Boolean)) {
    const descending = part.startsWith('-');
    const key = descending ? part.slice(1) : part;
    const column = Object.hasOwn(Object.fromEntries(allowed), key) ? allowed.get(key) : undefined;
    if (!column) {
      throw new FilterError(
        'sort',
        `sort key ${key} is not allowed here; allowed: ${[...allowed.keys()].join(', ')}`,
      );
    }
    if (keys.some((existing) => existing.key === key)) {
      throw new FilterError('sort', `sort names ${key} twice`);
    }
    keys.push(sortKey(alias, key, column, descending));
  }
  if (!keys.some((key) => key.key === 'id')) {
    keys.push(sortKey(alias, 'id', allowed.get('id')!, false));
  }
  if (list.sort !== undefined) {
    query.orderBy();
  }
  for (const key of keys) {
    query.addOrderBy(key.path, key.descending ? 'DESC' : 'ASC');
  }
  return keys;
}

function sortKey(alias: string, key: string, column: ColumnMetadata, descending: boolean): SortKey {
  const type = typeof column.type === 'string' ? column.type : '';
  return {
    key,
    column,
    path: `${alias}.${column.propertyPath}`,
    sql: `${alias}.${column.databaseName}`,
    descending,
    instant: /^timestamp/.test(type) || column.isCreateDate || column.isUpdateDate,
  };
}

/** A cursor: the last row's sort values and the sort it was made for, base64url JSON. */
interface Cursor {
  sort: string;
  values: (string | number)[];
}

export function encodeCursor(keys: SortKey[], values: (string | number)[]): string {
  const cursor: Cursor = { sort: describe(keys), values };
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

function describe(keys: SortKey[]): string {
  return keys.map((key) => `${key.descending ? '-' : ''}${key.key}`).join(',');
}

/**
 * Continues after the cursor's row: the keyset condition `(k1, k2, …) > (v1, v2, …)` written out per
 * key, since keys may go in different directions.
 */
export function resumeAfter<Entity extends ObjectLiteral>(
  query: SelectQueryBuilder<Entity>,
  keys: SortKey[],
  raw: string,
): void {
  let cursor: Cursor;
  try {
    cursor = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Cursor;
  } catch {
    throw new FilterError('cursor', 'cursor must be the next_cursor of a previous answer');
  }
  if (
    typeof cursor !== 'object' ||
    cursor === null ||
    cursor.sort !== describe(keys) ||
    !Array.isArray(cursor.values) ||
    cursor.values.length !== keys.length ||
    !cursor.values.every((value) => typeof value === 'string' || typeof value === 'number')
  ) {
    throw new FilterError('cursor', 'cursor must be the next_cursor of a previous answer with the same sort');
  }
  const parameters: Record<string, unknown> = {};
  const alternatives = keys.map((key, index) => {
    const equal = keys.slice(0, index).map((earlier, at) => `${earlier.sql} = ${value(earlier, at)}`);
    return [...equal, `${key.sql} ${key.descending ? '<' : '>'} ${value(key, index)}`].join(' AND ');
  });
  cursor.values.forEach((cursorValue, index) => (parameters[`cursor_${index}`] = cursorValue));
  query.andWhere(`((${alternatives.join(') OR (')}))`, parameters);

  function value(key: SortKey, index: number): string {
    return key.instant ? `CAST(:cursor_${index} AS timestamptz)` : `:cursor_${index}`;
  }
}

/**
 * The sort values of the last row of a page, for its cursor. A timestamp's exact value is read from
 * the database (one look-up by id): a Date has milliseconds, PostgreSQL microseconds.
 */
export async function lastValues<Entity extends ObjectLiteral>(
  query: SelectQueryBuilder<Entity>,
  alias: string,
  keys: SortKey[],
  last: Entity,
): Promise<(string | number)[]> {
  const values = keys.map((key) => key.column.getEntityValue(last) as string | number);
  const instants = keys.map(({ instant }, index) => (instant ? index : -1)).filter((index) => index >= 0);
  if (instants.length === 0) {
    return values;
  }
  const exact = query
    .clone()
    .orderBy()
    .select(`${alias}.id`, 'id')
    .andWhere(`${alias}.id = :cursor_last`, { cursor_last: last.id as number })
    .limit(1);
  for (const index of instants) {
    exact.addSelect(`${keys[index].sql}::text`, `k${index}`);
  }
  const row = await exact.getRawOne<Record<string, string>>();
  for (const index of instants) {
    values[index] = row?.[`k${index}`] ?? values[index];
  }
  return values;
}
