import { MAX_UNPAGED_RESULTS, type ListQueryDto, type Paginated } from '@platform/contracts';
import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { applyFilters, FilterError, type FilterDefinitions } from './list-filters';

const DEFAULT_PER_PAGE = 20;

/**
 * The one pagination helper (docs/spec/decisions.md §5): filters, a stable order, then either a page
 * `{total, perPage, page, lastPage, data}` (total as a string) or, with `page=false`, every result
 * as a plain array, refused past 10,000 so no request can pull a whole table.
 */
export async function paginate<Entity extends ObjectLiteral, Dto>(
  query: SelectQueryBuilder<Entity>,
  alias: string,
  list: ListQueryDto,
  filters: FilterDefinitions,
  toDto: (entity: Entity) => Dto,
): Promise<Paginated<Dto> | Dto[]> {
  applyFilters(query, alias, list.filters, filters).addOrderBy(`${alias}.id`, 'ASC');
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
