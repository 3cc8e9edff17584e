import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

// What ties an integration entity kind (libs/contracts) to the integrations service's routes and to
// main-api's change feed. The integrations service addresses a kind through its controller, whose
// operations are the committed document openapi/integrations.json (the integrations e2e spec proves
// the running service publishes exactly that document); subscribers only hear about a kind if a
// `record_change` trigger on main-api's table writes its change_events. Nothing else links the three,
// so a kind added to one of them without the others would let subscribers silently get no events.

/** The function main-api's change-feed triggers execute (migration AddChangeFeed1795440000000). */
export const CHANGE_FEED_FUNCTION = 'record_change';

/** One `record_change` trigger as PostgreSQL's catalog describes it. */
export interface ChangeFeedTrigger {
  table: string;
  trigger: string;
  /** TG_ARGV[0]: the change_events.entity it writes. */
  entity: string;
  /** TG_ARGV[1]: the column holding the entity's id. */
  idColumn: string;
  /** TG_ARGV[2]: set on a child table, whose changes are `updated` events of its parent naming this field. */
  asField: string | null;
  /** Fires (enabled, or enabled always): a disabled trigger writes nothing. */
  enabled: boolean;
  /** AFTER ... FOR EACH ROW, as record_change needs (it reads NEW and OLD, and returns NULL). */
  afterEachRow: boolean;
  /** The operations it fires on, of INSERT, UPDATE and DELETE. */
  firesOn: string[];
}

/**
 * A kind whose platform entity has no table of its own: its events come from a child table's trigger,
 * keyed by the parent's id (docs/decisions.md "Change feed": working time is keyed by the user's id).
 * Any other kind needs a trigger on its own table writing its created, updated and deleted events.
 */
export interface FieldTrackedKind {
  table: string;
  idColumn: string;
  asField: string;
}

export const FIELD_TRACKED_KINDS: Readonly<Record<string, FieldTrackedKind>> = {
  'working-time': { table: 'working_time_entries', idColumn: 'user_id', asField: 'entries' },
};

interface OpenApiOperation {
  tags?: string[];
  operationId?: string;
  parameters?: { name: string; in: string; schema?: { enum?: string[] } }[];
}

interface OpenApiSchema {
  properties?: Record<string, { items?: { enum?: string[] }; enum?: string[] }>;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, OpenApiSchema> };
}

const INTEGRATIONS_PREFIX = '/v2/integrations/';
const ENTITY_TAG_PREFIX = 'integrations: ';

/** openapi/integrations.json, read as a file: main-api's tests cannot import the integrations app. */
export function readIntegrationsDocument(): OpenApiDocument {
  const path = resolve(__dirname, '../../../../openapi/integrations.json');
  return JSON.parse(readFileSync(path, 'utf8')) as OpenApiDocument;
}

/** Each kind's operations in the document, as `METHOD path`: those of the tag its controller sets. */
export function entityOperationsOf(document: OpenApiDocument): Map<string, string[]> {
  const byKind = new Map<string, string[]>();
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      for (const tag of operation.tags ?? []) {
        if (tag.startsWith(ENTITY_TAG_PREFIX)) {
          const kind = tag.slice(ENTITY_TAG_PREFIX.length);
          byKind.set(kind, [...(byKind.get(kind) ?? []), `${method.toUpperCase()} ${path}`]);
        }
      }
    }
  }
  return byKind;
}

/**
 * Every place in the document that lists the kinds a client may name, by where it is: the mapping
 * look-up's `{entity}`, each schema's `entities` filter (the subscriptions'), and the outbound
 * webhook's `type` (`<entity>.<kind>`, reduced to the entities).
 */
export function entityListsOf(document: OpenApiDocument): Map<string, string[]> {
  const lists = new Map<string, string[]>();
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in === 'path' && parameter.name === 'entity' && parameter.schema?.enum) {
          lists.set(`${method.toUpperCase()} ${path} {entity}`, parameter.schema.enum);
        }
      }
    }
  }
  for (const [name, schema] of Object.entries(document.components?.schemas ?? {})) {
    const entities = schema.properties?.entities?.items?.enum;
    if (entities) {
      lists.set(`${name}.entities`, entities);
    }
    const types = name === 'OutboundWebhookDto' ? schema.properties?.type?.enum : undefined;
    if (types) {
      lists.set(`${name}.type`, [...new Set(types.map((type) => type.slice(0, type.lastIndexOf('.'))))]);
    }
  }
  return lists;
}

/** The `record_change` triggers on the tables of `schema`, from pg_trigger. */
export async function readChangeFeedTriggers(
  database: { query(sql: string, parameters: unknown[]): Promise<unknown> },
  schema: string,
): Promise<ChangeFeedTrigger[]> {
  const rows = (await database.query(
    `SELECT c.relname AS "table", t.tgname AS "trigger", t.tgtype AS "type", t.tgenabled AS "enabled",
            t.tgnargs AS "argumentCount", t.tgargs AS "arguments"
       FROM pg_trigger t
       JOIN pg_class c ON c.oid = t.tgrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_proc p ON p.oid = t.tgfoid
       JOIN pg_namespace pn ON pn.oid = p.pronamespace
      WHERE n.nspname = $1 AND pn.nspname = $1 AND p.proname = $2 AND NOT t.tgisinternal
      ORDER BY c.relname, t.tgname`,
    [schema, CHANGE_FEED_FUNCTION],
  )) as {
    table: string;
    trigger: string;
    type: number;
    enabled: string;
    argumentCount: number;
    arguments: Buffer;
  }[];
  return rows.map((row) => {
    // tgargs: the arguments, each followed by a NUL byte.
    const [entity = '', idColumn = 'id', asField = null] = row.arguments
      .toString('utf8')
      .split('\0')
      .slice(0, row.argumentCount);
    // tgtype bits (PostgreSQL's pg_trigger.h): ROW 1, BEFORE 2, INSERT 4, DELETE 8, UPDATE 16, INSTEAD 64.
    const firesOn = (
      [
        [4, 'INSERT'],
        [16, 'UPDATE'],
        [8, 'DELETE'],
      ] as const
    )
      .filter(([bit]) => (row.type & bit) !== 0)
      .map(([, operation]) => operation);
    return {
      table: row.table,
      trigger: row.trigger,
      entity,
      idColumn,
      asField,
      // 'O' fires in origin and local sessions, 'A' always; 'D' never, 'R' only on replicas.
      enabled: row.enabled === 'O' || row.enabled === 'A',
      afterEachRow: (row.type & 1) !== 0 && (row.type & (2 | 64)) === 0,
      firesOn,
    };
  });
}

export interface ChangeFeedCoverage {
  /** The kinds of libs/contracts (INTEGRATION_ENTITIES). */
  kinds: readonly string[];
  /**
   * Kinds in the feed with no integrations controller (CHANGE_FEED_ONLY_ENTITIES, issue 36): each
   * needs its trigger and its place in the subscriptions' filter and the webhook's type, not in the
   * mapping look-up (nothing maps them).
   */
  feedOnly?: readonly string[];
  /**
   * Kinds of the planner's own feed (PLANNER_FEED_ENTITIES): subscriptions and webhooks name them,
   * and their trigger is on the planner's table, which the planner's feed tests prove.
   */
  plannerKinds?: readonly string[];
  document: OpenApiDocument;
  triggers: readonly ChangeFeedTrigger[];
  fieldTracked?: Readonly<Record<string, FieldTrackedKind>>;
}

/** Kinds named otherwise than their table. */
const TABLES: Readonly<Record<string, string>> = { hours: 'time_entries' };

/** main-api's table of a kind with a table of its own: `position-categories` → `position_categories`. */
export function tableOfKind(kind: string): string {
  return TABLES[kind] ?? kind.replace(/-/g, '_');
}

/** The kind's triggers that write its events, or none. */
export function triggersOfKind(
  kind: string,
  triggers: readonly ChangeFeedTrigger[],
  fieldTracked: Readonly<Record<string, FieldTrackedKind>> = FIELD_TRACKED_KINDS,
): ChangeFeedTrigger[] {
  const expected = fieldTracked[kind] ?? { table: tableOfKind(kind), idColumn: 'id', asField: null };
  return triggers.filter(
    (trigger) =>
      trigger.entity === kind &&
      trigger.table === expected.table &&
      trigger.idColumn === expected.idColumn &&
      trigger.asField === expected.asField,
  );
}

/** What does not tie up, one line each, naming the kind; empty when every kind is covered. */
export function changeFeedCoverageProblems(coverage: ChangeFeedCoverage): string[] {
  const { kinds, document, triggers } = coverage;
  const feedOnly = coverage.feedOnly ?? [];
  const fieldTracked = coverage.fieldTracked ?? FIELD_TRACKED_KINDS;
  const problems: string[] = [];
  const operations = entityOperationsOf(document);
  const known = new Set([...kinds, ...feedOnly]);
  for (const kind of feedOnly) {
    if (triggersOfKind(kind, triggers, fieldTracked).length === 0) {
      problems.push(
        `${kind}: no ${CHANGE_FEED_FUNCTION} trigger writes its events on main_api.${tableOfKind(kind)}`,
      );
    }
  }

  for (const kind of kinds) {
    // Its controller: the routes its tag groups, its create among them, all under its own path.
    const own = operations.get(kind) ?? [];
    if (!own.includes(`POST ${INTEGRATIONS_PREFIX}${kind}`)) {
      problems.push(
        `${kind}: openapi/integrations.json has no POST ${INTEGRATIONS_PREFIX}${kind} tagged "${ENTITY_TAG_PREFIX}${kind}" (its controller's create)`,
      );
    }
    for (const operation of own) {
      const path = operation.slice(operation.indexOf(' ') + 1);
      if (path !== `${INTEGRATIONS_PREFIX}${kind}` && !path.startsWith(`${INTEGRATIONS_PREFIX}${kind}/`)) {
        problems.push(`${kind}: ${operation} is tagged as its operation but is not under its path`);
      }
    }
    // Its change feed: a trigger writing its events on the table main-api keeps it in.
    const expected = fieldTracked[kind];
    const where = expected
      ? `on main_api.${expected.table} (${expected.idColumn} as the id, field ${expected.asField})`
      : `on main_api.${tableOfKind(kind)}`;
    if (triggersOfKind(kind, triggers, fieldTracked).length === 0) {
      problems.push(`${kind}: no ${CHANGE_FEED_FUNCTION} trigger writes its events ${where}`);
    }
  }

  for (const kind of operations.keys()) {
    if (!kinds.includes(kind)) {
      problems.push(
        `${kind}: openapi/integrations.json has its operations but libs/contracts has no such kind`,
      );
    }
  }

  for (const trigger of triggers) {
    const name = `${trigger.trigger} on main_api.${trigger.table}`;
    if (!known.has(trigger.entity)) {
      problems.push(`${trigger.entity}: ${name} writes events of an entity libs/contracts does not have`);
    }
    if (!trigger.enabled) {
      problems.push(`${trigger.entity}: ${name} is disabled`);
    }
    if (!trigger.afterEachRow) {
      problems.push(`${trigger.entity}: ${name} is not AFTER ... FOR EACH ROW`);
    }
    const missed = ['INSERT', 'UPDATE', 'DELETE'].filter((operation) => !trigger.firesOn.includes(operation));
    if (missed.length > 0) {
      problems.push(`${trigger.entity}: ${name} does not fire on ${missed.join(', ')}`);
    }
  }

  // What clients may name (subscriptions' filter, the mapping look-up, the webhook's type) is exactly
  // the kinds with events: a kind listed without a trigger is a filter that never matches.
  const triggered = new Set([
    ...[...kinds, ...feedOnly].filter((kind) => triggersOfKind(kind, triggers, fieldTracked).length > 0),
    ...(coverage.plannerKinds ?? []),
  ]);
  const lists = entityListsOf(document);
  if (!lists.has('CreateSubscriptionDto.entities')) {
    problems.push('openapi/integrations.json: CreateSubscriptionDto has no entities filter');
  }
  for (const [list, entities] of lists) {
    const named = new Set(entities);
    // The mapping look-up names what can be mapped: the integration kinds only.
    const expected = list.endsWith('{entity}')
      ? new Set([...triggered].filter((kind) => kinds.includes(kind)))
      : triggered;
    for (const kind of named) {
      if (!expected.has(kind)) {
        problems.push(`${kind}: ${list} names it, but no ${CHANGE_FEED_FUNCTION} trigger writes its events`);
      }
    }
    for (const kind of expected) {
      if (!named.has(kind)) {
        problems.push(`${kind}: its events are written, but ${list} does not name it`);
      }
    }
  }
  return problems;
}
