import { appendFileSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import fc from 'fast-check';
import {
  EXPENSIVE_CLASSES,
  HOSTILE_CLASSES,
  HOSTILE_PATH_VALUES,
  HOSTILE_VALUES,
  hostileBodies,
  hostileQueryStrings,
  hostileQueryValues,
  type JsonText,
} from './hostile-input';

const WORKSPACE_ROOT = resolve(__dirname, '../../..');

export interface FuzzOptions {
  getApp(): NestFastifyApplication;
  /** `openapi/<service>.json`: every operation in it is fuzzed. */
  openApi: string;
  /** A valid bearer token of a C-Level user, so requests get past authentication. */
  authorization(): string;
  /** Checks one error body (status >= 400) is the service's own shape. */
  expectErrorBody(body: unknown, status: number): void;
  /** Random requests per operation after the sweep (default 40, `FUZZ_RUNS` overrides). */
  runs?: number;
  /** Operations not to fuzz, as `METHOD /path` (e.g. a route whose answer is not JSON). */
  skip?: string[];
}

/** An error body never larger than this, however bad the request (issue 20: 27 MB once). */
export const MAX_ERROR_BODY_BYTES = 8_192;

/**
 * A hang or an amplification guard, not a speed target (speed lives in `bench/`): a request that
 * takes this long on a test machine is doing work proportional to its hostile input.
 */
const MAX_REQUEST_MILLIS = 5_000;

interface Schema {
  $ref?: string;
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  example?: unknown;
  properties?: Record<string, Schema>;
  items?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
}

interface OpenApiDocument {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { name: string; in: string }[];
        requestBody?: { content?: Record<string, { schema?: Schema }> };
      }
    >
  >;
  components?: { schemas?: Record<string, Schema> };
}

interface Operation {
  method: string;
  path: string;
  pathParameters: string[];
  queryParameters: string[];
  bodySchema?: Schema;
  /** Operations other than GET get bodies even when they document none. */
  takesBody: boolean;
}

/** One request of the sweep: what it attacks, and the request itself. */
interface FuzzCase {
  attack: string;
  pathValues?: Record<string, string>;
  query?: string;
  body?: string;
}

/**
 * A fixed seed by default, so CI is repeatable; `FUZZ_SEED=random` explores new inputs (and prints
 * the seed of any failure), `FUZZ_SEED=<n>` replays one.
 */
function fuzzSeed(): { seed?: number } {
  const configured = process.env.FUZZ_SEED ?? '20261124';
  return configured === 'random' ? {} : { seed: Number(configured) };
}

function readDocument(file: string): OpenApiDocument {
  return JSON.parse(readFileSync(join(WORKSPACE_ROOT, file), 'utf8')) as OpenApiDocument;
}

function resolveSchema(document: OpenApiDocument, schema: Schema | undefined, depth = 0): Schema {
  if (!schema || depth > 8) {
    return {};
  }
  if (schema.$ref) {
    const name = schema.$ref.replace('#/components/schemas/', '');
    return resolveSchema(document, document.components?.schemas?.[name], depth + 1);
  }
  const parts = [
    ...(schema.allOf ?? []),
    ...(schema.oneOf ?? []).slice(0, 1),
    ...(schema.anyOf ?? []).slice(0, 1),
  ];
  if (parts.length === 0) {
    return schema;
  }
  const merged = parts.map((part) => resolveSchema(document, part, depth + 1));
  const combined: Schema = Object.assign({}, schema, ...merged);
  return {
    ...combined,
    properties: Object.assign(
      {},
      schema.properties,
      ...merged.map((part) => part.properties ?? {}),
    ) as Record<string, Schema>,
  };
}

function operationsOf(document: OpenApiDocument, skip: Set<string>): Operation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .map(([method, operation]) => {
        const parameters = operation.parameters ?? [];
        const bodySchema = operation.requestBody?.content?.['application/json']?.schema;
        return {
          method: method.toUpperCase(),
          path,
          pathParameters: parameters.filter((parameter) => parameter.in === 'path').map(({ name }) => name),
          queryParameters: parameters.filter((parameter) => parameter.in === 'query').map(({ name }) => name),
          bodySchema: bodySchema ? resolveSchema(document, bodySchema) : undefined,
          takesBody: method !== 'get',
        };
      })
      .filter((operation) => !skip.has(`${operation.method} ${operation.path}`)),
  );
}

const typeOf = (schema: Schema): string | undefined =>
  Array.isArray(schema.type) ? schema.type.find((type) => type !== 'null') : schema.type;

/** A value the operation would accept, so a hostile field is not refused for its neighbours alone. */
function plausibleValue(document: OpenApiDocument, raw: Schema, depth = 0): JsonText {
  const schema = resolveSchema(document, raw);
  if (schema.example !== undefined) {
    return JSON.stringify(schema.example);
  }
  if (schema.enum && schema.enum.length > 0) {
    return JSON.stringify(schema.enum[0]);
  }
  switch (typeOf(schema)) {
    case 'integer':
    case 'number':
      return '1';
    case 'boolean':
      return 'true';
    case 'array':
      return depth > 2 ? '[]' : `[${plausibleValue(document, schema.items ?? {}, depth + 1)}]`;
    case 'object':
      return depth > 2 ? '{}' : objectText(plausibleFields(document, schema, depth + 1));
    case 'string':
      return JSON.stringify(
        schema.format === 'date'
          ? '2026-03-02'
          : schema.format === 'date-time'
            ? '2026-03-02T10:00:00Z'
            : 'fuzz',
      );
    default:
      return '"fuzz"';
  }
}

function plausibleFields(document: OpenApiDocument, schema: Schema, depth = 0): Record<string, JsonText> {
  return Object.fromEntries(
    Object.entries(schema.properties ?? {}).map(([name, property]) => [
      name,
      plausibleValue(document, property, depth),
    ]),
  );
}

function objectText(fields: Record<string, JsonText>): string {
  return `{${Object.entries(fields)
    .map(([key, value]) => `${JSON.stringify(key)}:${value}`)
    .join(',')}}`;
}

/**
 * Every place a body carries a value: top-level fields, and the fields of objects in arrays and
 * nested objects, as a function that puts a hostile value there (and plausible ones around it).
 */
interface FieldTarget {
  path: string;
  place(value: JsonText, withNeighbours: boolean): string;
}

function fieldTargets(document: OpenApiDocument, schema: Schema): FieldTarget[] {
  const plausible = plausibleFields(document, schema);
  const targets: FieldTarget[] = [];
  for (const [name, rawProperty] of Object.entries(schema.properties ?? {})) {
    const put = (value: JsonText, withNeighbours: boolean): string =>
      objectText({ ...(withNeighbours ? plausible : {}), [name]: value });
    targets.push({ path: name, place: put });
    const property = resolveSchema(document, rawProperty);
    const inArray = typeOf(property) === 'array';
    const nested = resolveSchema(document, inArray ? property.items : property);
    for (const innerName of Object.keys(nested.properties ?? {})) {
      const innerPlausible = plausibleFields(document, nested);
      targets.push({
        path: `${name}${inArray ? '[0]' : ''}.${innerName}`,
        place: (value, withNeighbours) => {
          const inner = objectText({ ...(withNeighbours ? innerPlausible : {}), [innerName]: value });
          return put(inArray ? `[${inner}]` : inner, true);
        },
      });
    }
  }
  return targets;
}

/** The sweep: every hostile class in every field, parameter and body of one operation. */
function sweepOf(document: OpenApiDocument, operation: Operation, rotation: number): FuzzCase[] {
  const cases: FuzzCase[] = [];
  for (const parameter of operation.pathParameters) {
    for (const value of HOSTILE_PATH_VALUES) {
      cases.push({ attack: `path ${parameter}=${preview(value)}`, pathValues: { [parameter]: value } });
    }
  }
  for (const parameter of [...operation.queryParameters, 'unknown_parameter']) {
    for (const value of hostileQueryValues()) {
      cases.push({
        attack: `query ${parameter}=${preview(value)}`,
        query: `${encodeURIComponent(parameter)}=${encodeURIComponent(value)}`,
      });
    }
    for (const query of hostileQueryStrings(parameter)) {
      cases.push({ attack: `query ${preview(query)}`, query });
    }
  }
  if (!operation.takesBody) {
    return cases;
  }
  const schema = operation.bodySchema ?? {};
  for (const body of hostileBodies(plausibleFields(document, schema))) {
    cases.push({ attack: body.name, body: body.text });
  }
  fieldTargets(document, schema).forEach((target, fieldIndex) => {
    for (const hostileClass of HOSTILE_CLASSES) {
      const values = HOSTILE_VALUES[hostileClass];
      const chosen = EXPENSIVE_CLASSES.has(hostileClass)
        ? values.slice((fieldIndex + rotation) % values.length).slice(0, 1)
        : values;
      chosen.forEach((value, valueIndex) => {
        // `null` alone is how a PUT clears nothing and breaks a NOT NULL column; beside plausible
        // fields it reaches the database on creates. Other values alternate between the two.
        const variants = hostileClass === 'null' ? [false, true] : [(valueIndex + fieldIndex) % 2 === 1];
        for (const withNeighbours of variants) {
          cases.push({
            attack: `${hostileClass} in ${target.path}${withNeighbours ? ' (beside plausible fields)' : ''}: ${preview(value)}`,
            body: target.place(value, withNeighbours),
          });
        }
      });
    }
  });
  return cases;
}

/** Random combinations of the same classes, for what the sweep's one-at-a-time cases miss. */
function randomCases(document: OpenApiDocument, operation: Operation): fc.Arbitrary<FuzzCase> {
  const fieldValues = Object.values(HOSTILE_VALUES)
    .flat()
    .filter((text) => text.length < 2_000);
  const queryValues = hostileQueryValues().filter((value) => value.length < 2_000);
  const fields = Object.keys(operation.bodySchema?.properties ?? {});
  const plausible = plausibleFields(document, operation.bodySchema ?? {});
  return fc.record({
    pathValues: fc.dictionary(
      fc.constantFrom(...operation.pathParameters, 'none'),
      fc.oneof(fc.constantFrom(...HOSTILE_PATH_VALUES), fc.string({ maxLength: 20 })),
      { maxKeys: 2 },
    ),
    query: fc
      .array(
        fc.tuple(
          fc.oneof(fc.constantFrom(...operation.queryParameters, 'x'), fc.string({ maxLength: 8 })),
          fc.oneof(fc.constantFrom(...queryValues), fc.string({ maxLength: 30 })),
        ),
        { maxLength: 4 },
      )
      .map((pairs) => new URLSearchParams(pairs).toString()),
    body: fc.oneof(
      fc
        .tuple(
          fc.dictionary(
            fc.oneof(fc.constantFrom(...fields, 'x'), fc.string({ maxLength: 10 })),
            fc.constantFrom(...fieldValues),
            {
              maxKeys: 4,
            },
          ),
          fc.boolean(),
        )
        .map(([hostile, withNeighbours]) => objectText({ ...(withNeighbours ? plausible : {}), ...hostile })),
      fc.jsonValue().map((value) => JSON.stringify(value)),
    ),
    attack: fc.constant('random combination'),
  });
}

function preview(value: string): string {
  const shown = value.length > 40 ? `${value.slice(0, 30)}… (${value.length} chars)` : value;
  return JSON.stringify(shown);
}

/** What is wrong with the answer to one case, or undefined when it is the answer we promise. */
async function problemWith(
  options: FuzzOptions,
  operation: Operation,
  fuzzCase: FuzzCase,
): Promise<string | undefined> {
  const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(fuzzCase.pathValues?.[name] ?? '1'),
  );
  const url = fuzzCase.query ? `${path}?${fuzzCase.query}` : path;
  const started = performance.now();
  const response = await options.getApp().inject({
    method: operation.method as 'GET',
    url,
    headers: { authorization: options.authorization(), 'content-type': 'application/json' },
    ...(operation.takesBody ? { payload: fuzzCase.body ?? '{}' } : {}),
  });
  const millis = performance.now() - started;
  const status = response.statusCode;
  if (status >= 500) {
    return `answered ${status}: ${response.body.slice(0, 300)}`;
  }
  if (status >= 400) {
    if (response.rawPayload.length > MAX_ERROR_BODY_BYTES) {
      return `answered ${status} with an error body of ${response.rawPayload.length} bytes (at most ${MAX_ERROR_BODY_BYTES})`;
    }
    try {
      options.expectErrorBody(JSON.parse(response.body), status);
    } catch (error) {
      return `answered ${status} without the service's error body: ${response.body.slice(0, 200)} (${String(error).slice(0, 200)})`;
    }
  }
  if (millis > MAX_REQUEST_MILLIS) {
    return `took ${Math.round(millis)} ms (at most ${MAX_REQUEST_MILLIS})`;
  }
  return undefined;
}

/** `FUZZ_REPORT=<file>` appends every problem found as a JSON line, to count findings by class. */
function report(service: string, operation: Operation, fuzzCase: FuzzCase, problem: string): void {
  const file = process.env.FUZZ_REPORT;
  if (file) {
    appendFileSync(
      file,
      `${JSON.stringify({ service, operation: `${operation.method} ${operation.path}`, attack: fuzzCase.attack, problem: problem.slice(0, 200) })}\n`,
    );
  }
}

/**
 * The hostile-input fuzz of every documented operation (issues 9 and 20). First a sweep: every path
 * and query parameter, every body field (and the fields of objects inside arrays), and the body as a
 * whole, each with every class of `hostile-input.ts`: `null`, wrong types, deep nesting, prototype
 * keys, huge arrays and numbers, control characters, long strings, impossible dates, unknown fields.
 * Then random combinations (fast-check, fixed seed). Every answer is below 500; every error is the
 * service's own body, at most 8 KB, within a few seconds.
 */
export function itSurvivesFuzzingOfEveryOperation(options: FuzzOptions): void {
  const document = readDocument(options.openApi);
  const operations = operationsOf(document, new Set(options.skip ?? []));
  const runs = Number(process.env.FUZZ_RUNS ?? options.runs ?? 40);

  it.each(
    operations.map(
      (operation, index) => [`${operation.method} ${operation.path}`, operation, index] as const,
    ),
  )(
    'never answers 5xx, a foreign body, a huge error or late to hostile input: %s',
    async (name, operation, index) => {
      const problems: string[] = [];
      const note = (fuzzCase: FuzzCase, problem: string | undefined): void => {
        if (problem) {
          problems.push(`${fuzzCase.attack}: ${problem}`);
          report(options.openApi, operation, fuzzCase, problem);
        }
      };
      for (const fuzzCase of sweepOf(document, operation, index)) {
        note(fuzzCase, await problemWith(options, operation, fuzzCase));
      }
      await fc
        .assert(
          fc.asyncProperty(randomCases(document, operation), async (fuzzCase) => {
            const problem = await problemWith(options, operation, fuzzCase);
            note(fuzzCase, problem);
            return problem === undefined;
          }),
          { numRuns: runs, ...fuzzSeed() },
        )
        .catch((error: unknown) => {
          problems.push(`random: ${String(error).slice(0, 500)}`);
        });
      if (problems.length > 0) {
        throw new Error(`${name}: ${problems.length} problems, e.g.\n${problems.slice(0, 10).join('\n')}`);
      }
    },
    600_000,
  );
}
