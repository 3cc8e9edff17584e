import { MAX_UNPAGED_RESULTS, type ListQueryDto, type Paginated } from '@platform/contracts';
import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { applyFilters, FilterError, type FilterDefinitions } from './list-filters';

const DEFAULT_PER_PAGE = 20;

/**
 * The one pagination helper (decisions §5): filters, a stable order, then either a page
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
    const rows = await query.take(MAX_UNPAGED_RESULTS + 1).getMany();
    if (rows.length > MAX_UNPAGED_RESULTS) {
      throw new FilterError('page', `more than ${MAX_UNPAGED_RESULTS} results: use page and perPage`);
    }
    return rows.map(toDto);
  }
  const page = list.page ?? 1;
  const perPage = list.perPage ?? DEFAULT_PER_PAGE;
  const [rows, total] = await query
    .skip((page - 1) * perPage)
    .take(perPage)
    .getManyAndCount();
  return {
    total: String(total),
    perPage,
    page,
    lastPage: Math.max(1, Math.ceil(total / perPage)),
    data: rows.map(toDto),
  };
}
