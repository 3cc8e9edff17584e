import type { EntityManager, ObjectLiteral, QueryRunner, Repository, SelectQueryBuilder } from 'typeorm';
import { preparedStatementName, readRows } from './read-rows';
import { rowsToEntities, type RowsToEntities } from './rows-to-entities';

/** Stands in for a parameter while the SQL is built, so its position in the statement can be found. */
const PLACEHOLDER = '\u0000compiled-read-parameter:';

export type ShapeRead<Entity extends ObjectLiteral> = (
  query: SelectQueryBuilder<Entity>,
) => SelectQueryBuilder<Entity>;

interface Compiled<Entity> {
  sql: string;
  preparedName: string;
  parameterOrder: string[];
  toEntities: RowsToEntities<Entity>;
}

/**
 * A read whose SQL TypeORM builds once per process instead of on every call. Building a statement
 * with joins (aliases, column lists, soft-delete conditions) cost more CPU than running it on the
 * hot reads (bench/README.md); the statement only depends on the query's shape, and the values
 * travel as bind parameters, so the shape is built once with named parameters and then reused,
 * prepared once per pooled connection (`readRows`).
 * Rows become entities as `getMany()` makes them (`rowsToEntities`, on TypeORM's public metadata),
 * so the result is what the query builder would have returned.
 *
 * Limits, checked when the read is first used: every parameter is a single value (use
 * `= ANY(:ids)` rather than `IN (:...ids)`), and the query is one `rowsToEntities` covers (no
 * after-load listeners, subscribers, relation ids or mapped joins, which this path does not run).
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
    const toEntities = rowsToEntities(query);
    if (typeof toEntities === 'string') {
      throw new Error(`compiled read "${this.alias}": ${toEntities}`);
    }
    return { sql, preparedName: preparedStatementName(sql), parameterOrder, toEntities };
  }
}

/**
 * `query.getMany()` with the statement run by `readRows`: for the dynamic reads (lists with
 * filters) whose SQL cannot be compiled once. A query this path cannot serve (skip/take, which
 * need TypeORM's two-pass read; one `rowsToEntities` does not cover) is simply run by `getMany()`.
 */
export async function selectEntities<Entity extends ObjectLiteral>(
  query: SelectQueryBuilder<Entity>,
): Promise<Entity[]> {
  const { skip, take } = query.expressionMap;
  const toEntities = skip === undefined && take === undefined ? rowsToEntities(query) : undefined;
  if (toEntities === undefined || typeof toEntities === 'string') {
    return query.getMany();
  }
  const [sql, values] = query.getQueryAndParameters();
  const rows = await readRows<unknown>(managerOf(query), sql, values);
  return rows.length === 0 ? [] : toEntities(rows);
}

/** `query.getRawMany()` with the statement run by `readRows`. */
export async function selectRaw<Row>(query: SelectQueryBuilder<ObjectLiteral>): Promise<Row[]> {
  const [sql, values] = query.getQueryAndParameters();
  return readRows<Row>(managerOf(query), sql, values);
}

/**
 * The manager the query belongs to: its transaction's, when it was made inside one. TypeORM keeps
 * the query's runner in a protected field and offers no getter.
 */
function managerOf(query: SelectQueryBuilder<ObjectLiteral>): EntityManager {
  const runner = (query as unknown as { queryRunner?: QueryRunner }).queryRunner;
  return runner?.manager ?? query.dataSource.manager;
}
