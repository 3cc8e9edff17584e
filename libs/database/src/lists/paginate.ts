import {
  MAX_UNPAGED_RESULTS,
  type CursorPage,
  type ListAnswer,
  type ListQueryDto,
} from '@platform/contracts';
import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { applyFilters, FilterError, type FilterDefinitions } from './list-filters';
import { encodeCursor, lastValues, orderOf, resumeAfter, type SortDefinitions } from './list-order';

const DEFAULT_PER_PAGE = 20;

/**
 * The one pagination helper (docs/spec/decisions.md §5): filters, a stable order, then either a page
 * `{total, perPage, page, lastPage, data}` (total as a string) or, with `page=false`, every result
 * as a plain array, refused past 10,000 so no request can pull a whole table. Beside them (issue
 * 36): `sort` from the resource's allow-list (`sorts`), a cursor page `{data, next_cursor, has_more}`
 * when `limit` or `cursor` is sent, `updated_since` and `include_deleted`.
 */
export async function paginate<Entity extends ObjectLiteral, Dto>(
  query: SelectQueryBuilder<Entity>,
  alias: string,
  list: ListQueryDto,
  filters: FilterDefinitions,
  toDto: (entity: Entity) => Dto,
  sorts?: SortDefinitions,
): Promise<ListAnswer<Dto>> {
  applyFilters(query, alias, list.filters, filters);
  applyChangeWindow(query, alias, list);
  const keys = orderOf(query, alias, list, sorts);
  if (list.limit !== undefined || list.cursor !== undefined) {
    if (list.page !== undefined || list.perPage !== undefined) {
      throw new FilterError('cursor', 'a list is paged by limit and cursor or by page and perPage, not both');
    }
    return cursorPage(query, alias, list, keys, toDto);
  }
  if (list.page === false) {
    const rows = await windowRows(query, 0, MAX_UNPAGED_RESULTS + 1);
    if (rows.length > MAX_UNPAGED_RESULTS) {
      throw new FilterError('page', `more than ${MAX_UNPAGED_RESULTS} results: use page and perPage`);
    }
    return rows.map(toDto);
  }
  const page = list.page ?? 1;
  const perPage = list.perPage ?? DEFAULT_PER_PAGE;
  const [rows, total] = await pageAndCount(query, (page - 1) * perPage, perPage);
  return {
    total: String(total),
    perPage,
    page,
    lastPage: Math.max(1, Math.ceil(total / perPage)),
    data: rows.map(toDto),
  };
}

/** `updated_since` (rows changed after it) and `include_deleted` (soft-deleted rows too). */
function applyChangeWindow<Entity extends ObjectLiteral>(
  query: SelectQueryBuilder<Entity>,
  alias: string,
  list: ListQueryDto,
): void {
  const metadata = query.expressionMap.mainAlias!.metadata;
  if (list.updated_since !== undefined) {
    if (!metadata.updateDateColumn) {
      throw new FilterError('updated_since', 'this list has no updated_at to filter by');
    }
    query.andWhere(
      `${alias}.${metadata.updateDateColumn.databaseName} > CAST(:updated_since AS timestamptz)`,
      {
        updated_since: list.updated_since,
      },
    );
  }
  if (list.include_deleted === 'true') {
    if (!metadata.deleteDateColumn) {
      throw new FilterError('include_deleted', 'this list has no deleted rows to include');
    }
    query.withDeleted();
  }
}

/** One cursor page: `limit` rows after the cursor's, and whether more follow. */
async function cursorPage<Entity extends ObjectLiteral, Dto>(
  query: SelectQueryBuilder<Entity>,
  alias: string,
  list: ListQueryDto,
  keys: Parameters<typeof encodeCursor>[0],
  toDto: (entity: Entity) => Dto,
): Promise<CursorPage<Dto>> {
  const limit = list.limit ?? DEFAULT_PER_PAGE;
  const base = query.clone();
  if (list.cursor !== undefined) {
    resumeAfter(query, keys, list.cursor);
  }
  const rows = await windowRows(query, 0, limit + 1);
  const hasMore = rows.length > limit;
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    data: page.map(toDto),
    next_cursor: hasMore && last ? encodeCursor(keys, await lastValues(base, alias, keys, last)) : null,
    has_more: hasMore,
  };
}

/**
 * With only to-one joins (the usual case) a window is a plain LIMIT/OFFSET. TypeORM's skip/take would first select the distinct ids of the
 * window in a pass over every matching row, which only to-many joins (several rows per entity) need.
 */
function windowRows<Entity extends ObjectLiteral>(
  query: SelectQueryBuilder<Entity>,
  offset: number,
  limit: number,
): Promise<Entity[]> {
  return hasToManyJoins(query)
    ? query.skip(offset).take(limit).getMany()
    : query.offset(offset).limit(limit).getMany();
}

function hasToManyJoins(query: SelectQueryBuilder<ObjectLiteral>): boolean {
  return query.expressionMap.joinAttributes.some((join) => join.isMany);
}

/** One page and the total, side by side; the total is a COUNT(*) unless the joins or a GROUP BY need DISTINCT. */
async function pageAndCount<Entity extends ObjectLiteral>(
  query: SelectQueryBuilder<Entity>,
  offset: number,
  limit: number,
): Promise<[Entity[], number]> {
  // COUNT(*) would count rows of the join or groups, not entities: TypeORM's distinct count then.
  if (hasToManyJoins(query) || query.expressionMap.groupBys.length > 0) {
    return query.skip(offset).take(limit).getManyAndCount();
  }
  const counting = query.clone().select('COUNT(*)', 'count').orderBy();
  const [rows, counted] = await Promise.all([
    windowRows(query, offset, limit),
    counting.getRawOne<{ count: string }>(),
  ]);
  return [rows, Number(counted?.count ?? 0)];
}
