import { RequestValidationError } from '@platform/runtime';
import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';

/** How one allow-listed filter key maps onto a column. */
export type FilterDefinition =
  | { kind: 'integer'; column: string }
  | { kind: 'boolean'; column: string }
  | { kind: 'enum'; column: string; values: readonly string[]; aliases?: Readonly<Record<string, string>> }
  /** Case-insensitive "contains" on text. */
  | { kind: 'text'; column: string }
  /** A calendar day, `YYYY-MM-DD`; ranges allowed. */
  | { kind: 'date'; column: string }
  /** An instant, `YYYY-MM-DDTHH:mm:ss[.sss]Z`; ranges allowed. */
  | { kind: 'timestamp'; column: string }
  /** A number (hours, amounts); ranges allowed. */
  | { kind: 'number'; column: string };

/** The kinds a range (`gt`, `gte`, `lt`, `lte`) makes sense for. */
const RANGED = new Set<FilterDefinition['kind']>(['integer', 'date', 'timestamp', 'number']);
const RANGE_OPERATORS: Readonly<Record<string, string>> = { gt: '>', gte: '>=', lt: '<', lte: '<=' };
const OPERATORS = [...Object.keys(RANGE_OPERATORS), 'in', 'is_null'];

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
 * whose values are a scalar (equals), an array (any of), or an object of operators (issue 36):
 * `gt`, `gte`, `lt`, `lte` on numbers, ids, dates and instants, `in` (any of) and `is_null`
 * (true or false), all of them together. Values are always bound parameters.
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
    const parameter = `filter_${index}`;
    // A column name, or an SQL expression over the row written with `{alias}` placeholders.
    const column = definition.column.includes('{alias}')
      ? definition.column.replaceAll('{alias}', alias)
      : `${alias}.${definition.column}`;
    if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
      applyOperators(query, key, definition, column, parameter, raw as Record<string, unknown>);
      return;
    }
    applyAnyOf(query, key, definition, column, parameter, raw);
  });
  return query;
}

function applyOperators<Entity extends ObjectLiteral>(
  query: SelectQueryBuilder<Entity>,
  key: string,
  definition: FilterDefinition,
  column: string,
  parameter: string,
  operators: Record<string, unknown>,
): void {
  const names = Object.keys(operators);
  if (names.length === 0) {
    throw new FilterError(`filters.${key}`, `filters.${key} must name an operator: ${OPERATORS.join(', ')}`);
  }
  for (const name of names) {
    const field = `filters.${key}.${name}`;
    const operand = operators[name];
    if (Object.hasOwn(RANGE_OPERATORS, name)) {
      if (!RANGED.has(definition.kind)) {
        throw new FilterError(field, `filters.${key} is not ordered: ${name} does not apply`);
      }
      const value = coerce(key, definition, operand, field);
      query.andWhere(`${column} ${RANGE_OPERATORS[name]} ${bound(definition, `${parameter}_${name}`)}`, {
        [`${parameter}_${name}`]: value,
      });
    } else if (name === 'in') {
      if (!Array.isArray(operand)) {
        throw new FilterError(field, `${field} must be an array`);
      }
      applyAnyOf(query, key, definition, column, `${parameter}_in`, operand, field);
    } else if (name === 'is_null') {
      if (typeof operand !== 'boolean') {
        throw new FilterError(field, `${field} must be true or false`);
      }
      query.andWhere(`${column} IS ${operand ? '' : 'NOT '}NULL`);
    } else {
      throw new FilterError(field, `${name} is not an operator; allowed: ${OPERATORS.join(', ')}`);
    }
  }
}

/** A parameter in SQL, cast where PostgreSQL cannot infer its type from the column's. */
function bound(definition: FilterDefinition, parameter: string): string {
  return definition.kind === 'timestamp' ? `CAST(:${parameter} AS timestamptz)` : `:${parameter}`;
}

function applyAnyOf<Entity extends ObjectLiteral>(
  query: SelectQueryBuilder<Entity>,
  key: string,
  definition: FilterDefinition,
  column: string,
  parameter: string,
  raw: unknown,
  field = `filters.${key}`,
): void {
  const values = (Array.isArray(raw) ? raw : [raw]).map((value) => coerce(key, definition, value, field));
  if (values.length === 0 || values.length > MAX_VALUES) {
    throw new FilterError(field, `${field} must hold 1 to ${MAX_VALUES} values`);
  }
  if (definition.kind === 'text') {
    const patterns = values.map((value) => `%${String(value).replace(/[\\%_]/g, (match) => `\\${match}`)}%`);
    query.andWhere(`${column} ILIKE ANY(:${parameter})`, { [parameter]: patterns });
  } else if (definition.kind === 'timestamp') {
    query.andWhere(`${column} = ANY(CAST(:${parameter} AS timestamptz[]))`, { [parameter]: values });
  } else {
    query.andWhere(`${column} IN (:...${parameter})`, { [parameter]: values });
  }
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

function coerce(
  key: string,
  definition: FilterDefinition,
  value: unknown,
  field = `filters.${key}`,
): string | number | boolean {
  switch (definition.kind) {
    case 'date':
      if (
        typeof value === 'string' &&
        DAY.test(value) &&
        !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) &&
        new Date(`${value}T00:00:00Z`).toISOString().startsWith(value)
      ) {
        return value;
      }
      throw new FilterError(field, `${field} must be a day, YYYY-MM-DD`);
    case 'timestamp':
      if (typeof value === 'string' && INSTANT.test(value) && !Number.isNaN(Date.parse(value))) {
        return value;
      }
      throw new FilterError(field, `${field} must be a UTC date-time, YYYY-MM-DDTHH:mm:ssZ`);
    case 'number':
      if (typeof value === 'number' && Number.isFinite(value) && Math.abs(value) < 1e12) {
        return value;
      }
      throw new FilterError(field, `${field} must be a number`);
    case 'integer':
      if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0 && value <= 2_147_483_647) {
        return value;
      }
      if (typeof value === 'string' && /^[1-9]\d{0,9}$/.test(value) && Number(value) <= 2_147_483_647) {
        return Number(value);
      }
      throw new FilterError(field, `${field} must be an id or an array of ids`);
    case 'boolean':
      if (typeof value === 'boolean') {
        return value;
      }
      if (value === 'true' || value === 'false' || value === 1 || value === 0) {
        return value === 'true' || value === 1;
      }
      throw new FilterError(field, `${field} must be true or false`);
    case 'enum': {
      const normalized = typeof value === 'string' ? (definition.aliases?.[value] ?? value) : value;
      if (typeof normalized === 'string' && definition.values.includes(normalized)) {
        return normalized;
      }
      throw new FilterError(field, `${field} must be one of ${definition.values.join(', ')}`);
    }
    case 'text':
      // U+0000 cannot reach PostgreSQL text (it would fail there, not here).
      if (typeof value === 'string' && value.length > 0 && value.length <= 200 && !value.includes('\u0000')) {
        return value;
      }
      throw new FilterError(field, `${field} must be text of 1 to 200 characters, without NUL`);
  }
}
