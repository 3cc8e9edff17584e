import { RequestValidationError } from '@platform/runtime';
import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';

/** How one allow-listed filter key maps onto a column. */
export type FilterDefinition =
  | { kind: 'integer'; column: string }
  | { kind: 'boolean'; column: string }
  | { kind: 'enum'; column: string; values: readonly string[]; aliases?: Readonly<Record<string, string>> }
  /** Case-insensitive "contains" on text. */
  | { kind: 'text'; column: string };

export type FilterDefinitions = Readonly<Record<string, FilterDefinition>>;

/** A list-parameter problem, named by field: each service answers it with its 400 validation body. */
export class FilterError extends RequestValidationError {
  constructor(field: string, message: string) {
    super([{ field, validation: 'filters', message }]);
  }
}

const MAX_VALUES = 100;

/**
 * The one filters parser (docs/spec/decisions.md §5): a JSON object whose keys are allow-listed per resource and
 * whose values are a scalar (equals) or an array (any of). Values are always bound parameters.
 */
export function applyFilters<Entity extends ObjectLiteral>(
  query: SelectQueryBuilder<Entity>,
  alias: string,
  rawFilters: string | undefined,
  definitions: FilterDefinitions,
): SelectQueryBuilder<Entity> {
  if (rawFilters === undefined || rawFilters.trim() === '') {
    return query;
  }
  let filters: unknown;
  try {
    filters = JSON.parse(rawFilters);
  } catch {
    throw new FilterError('filters', 'filters must be a URL-encoded JSON object');
  }
  if (typeof filters !== 'object' || filters === null || Array.isArray(filters)) {
    throw new FilterError('filters', 'filters must be a URL-encoded JSON object');
  }
  Object.entries(filters as Record<string, unknown>).forEach(([key, raw], index) => {
    // Own keys only: `constructor`, `toString` or `__proto__` would otherwise find Object.prototype's.
    const definition = Object.hasOwn(definitions, key) ? definitions[key] : undefined;
    if (!definition) {
      throw new FilterError(
        `filters.${key}`,
        `filters.${key} is not a filter here; allowed: ${Object.keys(definitions).join(', ')}`,
      );
    }
    const values = (Array.isArray(raw) ? raw : [raw]).map((value) => coerce(key, definition, value));
    if (values.length === 0 || values.length > MAX_VALUES) {
      throw new FilterError(`filters.${key}`, `filters.${key} must hold 1 to ${MAX_VALUES} values`);
    }
    const parameter = `filter_${index}`;
    // A column name, or an SQL expression over the row written with `{alias}` placeholders.
    const column = definition.column.includes('{alias}')
      ? definition.column.replaceAll('{alias}', alias)
      : `${alias}.${definition.column}`;
    if (definition.kind === 'text') {
      const patterns = values.map(
        (value) => `%${String(value).replace(/[\\%_]/g, (match) => `\\${match}`)}%`,
      );
      query.andWhere(`${column} ILIKE ANY(:${parameter})`, { [parameter]: patterns });
    } else {
      query.andWhere(`${column} IN (:...${parameter})`, { [parameter]: values });
    }
  });
  return query;
}

function coerce(key: string, definition: FilterDefinition, value: unknown): string | number | boolean {
  switch (definition.kind) {
    case 'integer':
      if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0 && value <= 2_147_483_647) {
        return value;
      }
      if (typeof value === 'string' && /^[1-9]\d{0,9}$/.test(value) && Number(value) <= 2_147_483_647) {
        return Number(value);
      }
      throw new FilterError(`filters.${key}`, `filters.${key} must be an id or an array of ids`);
    case 'boolean':
      if (typeof value === 'boolean') {
        return value;
      }
      if (value === 'true' || value === 'false' || value === 1 || value === 0) {
        return value === 'true' || value === 1;
      }
      throw new FilterError(`filters.${key}`, `filters.${key} must be true or false`);
    case 'enum': {
      const normalized = typeof value === 'string' ? (definition.aliases?.[value] ?? value) : value;
      if (typeof normalized === 'string' && definition.values.includes(normalized)) {
        return normalized;
      }
      throw new FilterError(
        `filters.${key}`,
        `filters.${key} must be one of ${definition.values.join(', ')}`,
      );
    }
    case 'text':
      // U+0000 cannot reach PostgreSQL text (it would fail there, not here).
      if (typeof value === 'string' && value.length > 0 && value.length <= 200 && !value.includes('\u0000')) {
        return value;
      }
      throw new FilterError(
        `filters.${key}`,
        `filters.${key} must be text of 1 to 200 characters, without NUL`,
      );
  }
}
