import { CHANGE_FEED_ONLY_ENTITIES, INTEGRATION_ENTITIES, PLANNER_FEED_ENTITIES } from '@platform/contracts';
import { MAIN_API_DATABASE } from '../src/database/main-api.data-source';
import {
  changeFeedCoverageProblems,
  readChangeFeedTriggers,
  readIntegrationsDocument,
  tableOfKind,
  triggersOfKind,
  type ChangeFeedTrigger,
  type OpenApiDocument,
} from './support/change-feed-coverage';
import { startMainApiTestApp, type MainApiTestApp } from './support/main-api-test-app';

// Issue 35: an integration entity kind needs its controller (its operations in the committed
// integrations document), a change-feed trigger on main-api's table, and its place in the
// subscriptions' entity filter; forgetting the trigger would let subscribers silently get no events.

const trigger = (entity: string, overrides: Partial<ChangeFeedTrigger> = {}): ChangeFeedTrigger => {
  const table = overrides.table ?? tableOfKind(entity);
  return {
    table,
    trigger: `${table}_record_change`,
    entity,
    idColumn: 'id',
    asField: null,
    enabled: true,
    afterEachRow: true,
    firesOn: ['INSERT', 'UPDATE', 'DELETE'],
    ...overrides,
  };
};

/** The integrations document's parts the comparison reads, for the given kinds. */
const documentFor = (kinds: string[], subscriptionEntities = kinds): OpenApiDocument => ({
  paths: {
    ...Object.fromEntries(
      kinds.map((kind) => [`/v2/integrations/${kind}`, { post: { tags: [`integrations: ${kind}`] } }]),
    ),
    '/v2/integrations/{entity}/{external_id}': {
      get: { tags: ['mappings'], parameters: [{ name: 'entity', in: 'path', schema: { enum: kinds } }] },
    },
  },
  components: {
    schemas: {
      CreateSubscriptionDto: { properties: { entities: { items: { enum: subscriptionEntities } } } },
      OutboundWebhookDto: {
        properties: { type: { enum: kinds.flatMap((kind) => [`${kind}.created`, `${kind}.deleted`]) } },
      },
    },
  },
});

describe('change-feed coverage of the integration entity kinds', () => {
  describe('the comparison, on hand-made cases', () => {
    const kinds = ['projects', 'position-categories', 'working-time'];
    const triggers = [
      trigger('projects'),
      trigger('projects', { table: 'project_positions', idColumn: 'project_id', asField: 'users_positions' }),
      trigger('position-categories'),
      trigger('working-time', { table: 'working_time_entries', idColumn: 'user_id', asField: 'entries' }),
    ];
    const problemsWith = (changes: { triggers?: ChangeFeedTrigger[]; document?: OpenApiDocument }) =>
      changeFeedCoverageProblems({
        kinds,
        document: changes.document ?? documentFor(kinds),
        triggers: changes.triggers ?? triggers,
      });

    it('finds nothing to report when every kind has its operations, its trigger and its place in the filters', () => {
      expect(problemsWith({})).toEqual([]);
    });

    it("reports a kind whose own table has no trigger, even when a child table's trigger names it", () => {
      const problems = problemsWith({ triggers: triggers.filter((each) => each.table !== 'projects') });

      expect(problems).toEqual(
        expect.arrayContaining([
          'projects: no record_change trigger writes its events on main_api.projects',
          'projects: CreateSubscriptionDto.entities names it, but no record_change trigger writes its events',
        ]),
      );
      expect(problems.every((problem) => problem.startsWith('projects: '))).toBe(true);
    });

    it("reports a field-tracked kind (working time) whose child table's trigger is missing", () => {
      const problems = problemsWith({
        triggers: triggers.filter((each) => each.table !== 'working_time_entries'),
      });

      expect(problems).toContain(
        'working-time: no record_change trigger writes its events on main_api.working_time_entries (user_id as the id, field entries)',
      );
    });

    it('reports a trigger writing another entity name than its table holds', () => {
      const problems = problemsWith({
        triggers: [
          ...triggers.filter((each) => each.table !== 'position_categories'),
          trigger('positions', { table: 'position_categories' }),
        ],
      });

      expect(problems).toEqual(
        expect.arrayContaining([
          'position-categories: no record_change trigger writes its events on main_api.position_categories',
          'positions: position_categories_record_change on main_api.position_categories writes events of an entity libs/contracts does not have',
        ]),
      );
    });

    it('reports a trigger that is disabled, not AFTER ... FOR EACH ROW, or deaf to some operations', () => {
      const problems = problemsWith({
        triggers: [
          trigger('projects', { enabled: false }),
          trigger('position-categories', { afterEachRow: false, firesOn: ['INSERT'] }),
          triggers[3],
        ],
      });

      expect(problems).toEqual([
        'projects: projects_record_change on main_api.projects is disabled',
        'position-categories: position_categories_record_change on main_api.position_categories is not AFTER ... FOR EACH ROW',
        'position-categories: position_categories_record_change on main_api.position_categories does not fire on UPDATE, DELETE',
      ]);
    });

    it('reports a kind without its create operation, and operations of a kind libs/contracts lacks', () => {
      const document = documentFor(kinds);
      delete document.paths['/v2/integrations/position-categories'];
      document.paths['/v2/integrations/tasks'] = { post: { tags: ['integrations: tasks'] } };

      expect(problemsWith({ document })).toEqual([
        'position-categories: openapi/integrations.json has no POST /v2/integrations/position-categories tagged "integrations: position-categories" (its controller\'s create)',
        'tasks: openapi/integrations.json has its operations but libs/contracts has no such kind',
      ]);
    });

    it("reports a subscriptions' entity filter that leaves out a kind with events", () => {
      const document = documentFor(kinds, ['projects', 'working-time']);

      expect(problemsWith({ document })).toEqual([
        'position-categories: its events are written, but CreateSubscriptionDto.entities does not name it',
      ]);
    });
  });

  describe("on main-api's migrated database and the committed integrations document (e2e)", () => {
    let app: MainApiTestApp;
    const schema = MAIN_API_DATABASE.schema;
    const document = readIntegrationsDocument();

    beforeAll(async () => {
      app = await startMainApiTestApp([]);
    });

    afterAll(() => app.close());

    it('every kind of libs/contracts has its operations, a change-feed trigger on its main-api table and its place in the filters', async () => {
      const triggers = await readChangeFeedTriggers(app.dataSource, schema);

      expect(
        changeFeedCoverageProblems({
          kinds: INTEGRATION_ENTITIES,
          feedOnly: CHANGE_FEED_ONLY_ENTITIES,
          plannerKinds: PLANNER_FEED_ENTITIES,
          document,
          triggers,
        }),
      ).toEqual([]);
      // Not vacuous: the kinds were read, and each has a trigger in the catalog.
      expect(
        [...INTEGRATION_ENTITIES, ...CHANGE_FEED_ONLY_ENTITIES].filter(
          (kind) => triggersOfKind(kind, triggers).length === 0,
        ),
      ).toEqual([]);
      expect(INTEGRATION_ENTITIES.length).toBeGreaterThan(0);
    });

    it('reports a kind added to libs/contracts with neither a controller nor a trigger', async () => {
      const problems = changeFeedCoverageProblems({
        kinds: [...INTEGRATION_ENTITIES, 'invoices'],
        feedOnly: CHANGE_FEED_ONLY_ENTITIES,
        plannerKinds: PLANNER_FEED_ENTITIES,
        document,
        triggers: await readChangeFeedTriggers(app.dataSource, schema),
      });

      expect(problems).toEqual([
        'invoices: openapi/integrations.json has no POST /v2/integrations/invoices tagged "integrations: invoices" (its controller\'s create)',
        'invoices: no record_change trigger writes its events on main_api.invoices',
      ]);
    });

    it('reports a feed-only kind whose trigger is missing', async () => {
      const triggers = await readChangeFeedTriggers(app.dataSource, schema);
      const problems = changeFeedCoverageProblems({
        kinds: INTEGRATION_ENTITIES,
        feedOnly: CHANGE_FEED_ONLY_ENTITIES,
        plannerKinds: PLANNER_FEED_ENTITIES,
        document,
        triggers: triggers.filter((each) => each.table !== 'time_entries'),
      });

      expect(problems).toEqual(
        expect.arrayContaining([
          'hours: no record_change trigger writes its events on main_api.time_entries',
        ]),
      );
    });

    const drop = (name: string, table: string) => `DROP TRIGGER "${name}" ON "${schema}"."${table}"`;
    const disable = (name: string, table: string) =>
      `ALTER TABLE "${schema}"."${table}" DISABLE TRIGGER "${name}"`;

    // DDL is transactional in PostgreSQL: each case breaks a trigger in a transaction it rolls back.
    it.each([
      [
        'projects',
        'dropped',
        drop,
        'projects: no record_change trigger writes its events on main_api.projects',
      ],
      [
        'working-time',
        'dropped',
        drop,
        'working-time: no record_change trigger writes its events on main_api.working_time_entries (user_id as the id, field entries)',
      ],
      [
        'user-leaves',
        'disabled',
        disable,
        'user-leaves: user_leaves_record_change on main_api.user_leaves is disabled',
      ],
    ])(
      'reports %s, and only it, when its trigger is %s in the catalog',
      async (kind, _change, statement, report) => {
        const runner = app.dataSource.createQueryRunner();
        await runner.connect();
        await runner.startTransaction();
        try {
          const [own] = triggersOfKind(kind, await readChangeFeedTriggers(runner, schema));
          await runner.query(statement(own.trigger, own.table));

          const problems = changeFeedCoverageProblems({
            kinds: INTEGRATION_ENTITIES,
            feedOnly: CHANGE_FEED_ONLY_ENTITIES,
            plannerKinds: PLANNER_FEED_ENTITIES,
            document,
            triggers: await readChangeFeedTriggers(runner, schema),
          });

          expect(problems).toContain(report);
          expect(problems.filter((problem) => !problem.startsWith(`${kind}: `))).toEqual([]);
        } finally {
          await runner.rollbackTransaction();
          await runner.release();
        }
      },
    );
  });
});
