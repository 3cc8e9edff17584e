import { randomBytes } from 'node:crypto';
import { signChangeOrigin } from '@platform/auth';
import { RetentionPruner } from '@platform/database';
import { signTestToken, TEST_CHANGE_ORIGIN_KEY } from '@platform/testing';
import {
  fieldsOf,
  startMainApiTestApp,
  type CallOptions,
  type MainApiTestApp,
} from './support/main-api-test-app';

interface FeedEvent {
  cursor: string;
  entity: string;
  id: number;
  kind: string;
  changed_fields: string[];
  origin: string | null;
  project_id: number | null;
  occurred_at: string;
}
interface FeedPage {
  data: FeedEvent[];
  next_cursor: string;
}

describe('main-api change feed (e2e)', () => {
  let app: MainApiTestApp;
  let otherCompany: number;

  beforeAll(async () => {
    // A pool of two: consecutive requests reuse the same connections, which is where a change
    // origin left on a connection would leak into the next request's events.
    app = await startMainApiTestApp(['Feed A', 'Feed B'], { DATABASE_POOL_MAX: '2' });
    otherCompany = app.companies[1].companyId;
  });

  afterAll(() => app.close());

  const feed = async (after: string, limit = 1000, options: CallOptions = {}): Promise<FeedPage> => {
    const response = await app.call('GET', `/events?after=${after}&limit=${limit}`, undefined, options);
    expect(response.statusCode).toBe(200);
    return response.json<FeedPage>();
  };
  const latestCursor = async (): Promise<string> => {
    let page = await feed('0');
    let cursor = page.next_cursor;
    while (page.data.length > 0) {
      page = await feed(cursor);
      cursor = page.next_cursor;
    }
    return cursor;
  };
  /** Headers of a write as the integrations service makes it: its token, the origin, its signature. */
  const signedOrigin = (origin: string, key = TEST_CHANGE_ORIGIN_KEY): Record<string, string> => {
    const authorization = `Bearer ${signTestToken({ keys: app.keys, companyId: app.companies[0].companyId })}`;
    return {
      authorization,
      'x-change-origin': origin,
      'x-change-origin-signature': signChangeOrigin(key, origin, authorization),
    };
  };
  const created = async (url: string, body: object, options?: CallOptions): Promise<number> => {
    const response = await app.call('POST', url, body, options);
    expect(response.statusCode).toBe(201);
    return response.json<{ id: number }>().id;
  };

  it('records a create, an update and a delete (tombstone) in order, with the fields they touched', async () => {
    const start = await latestCursor();
    const clientId = await created('/clients', { name: 'Acme', email: 'hello@acme.test' });
    await app.call('PUT', `/clients/${clientId}`, { name: 'Acme Studio' });
    await app.call('PUT', `/clients/${clientId}`, { name: 'Acme Studio' }); // no change, no event
    await app.call('DELETE', `/clients/${clientId}`);

    const { data, next_cursor } = await feed(start);

    expect(data).toEqual([
      expect.objectContaining({ entity: 'clients', id: clientId, kind: 'created', origin: null }),
      expect.objectContaining({ entity: 'clients', id: clientId, kind: 'updated', changed_fields: ['name'] }),
      expect.objectContaining({ entity: 'clients', id: clientId, kind: 'deleted', changed_fields: [] }),
    ]);
    expect(data[0].changed_fields).toEqual(expect.arrayContaining(['name', 'email']));
    expect(data[0].changed_fields).not.toContain('company_id');
    expect(next_cursor).toBe(data[2].cursor);
    expect(new Date(data[0].occurred_at).getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it('records every entity kind, each under its route name (issue 36)', async () => {
    const after = await latestCursor();
    const client = await created('/clients', { name: 'Every kind' });
    const position = await created('/positions', { name: 'Every kind position' });
    const brand = await created('/brands', { name: 'Every kind brand', client_id: client });
    const project = await created('/projects', { name: 'Every kind project', client_id: client });
    const ids = {
      tasks: await created('/tasks', { project_id: project, name: 'Key visual' }),
      hours: await created('/hours', {
        user_id: 1,
        project_id: project,
        user_position_id: position,
        date: '2027-01-04',
        hours: 2,
      }),
      fees: await created(`/clients/${client}/fees`, { name: 'Retainer', estimate: 1000 }),
      'project-estimates': await created(`/projects/${project}/project_estimate`, {
        title: 'Photography',
        cost: '450.00',
        datetime: '2027-01-05',
        currency_id: 1,
      }),
      ratecards: await created('/ratecards', {
        name: 'Every kind',
        prices: [{ position_id: position, price: 90 }],
      }),
      labels: await created('/labels', { name: 'Every kind', color: '#112233', model: 'project' }),
      products: await created('/products', { name: 'Every kind', client_id: client, brand_id: brand }),
    };
    const cost = await created(`/projects/${project}/project_cost`, {
      title: 'Studio',
      cost: 120,
      datetime: '2027-01-06',
      project_estimate_id: ids['project-estimates'],
    });
    expect((await app.call('DELETE', `/hours/${ids.hours}`)).statusCode).toBe(200);

    const events = (await feed(after)).data;
    for (const [entity, id] of Object.entries({ ...ids, 'project-costs': cost })) {
      expect(events).toContainEqual(expect.objectContaining({ entity, id, kind: 'created' }));
    }
    // Hard deletes are tombstones too.
    expect(events).toContainEqual(
      expect.objectContaining({ entity: 'hours', id: ids.hours, kind: 'deleted' }),
    );
    // Each event names its project where the entity has one (a subscription filters by it).
    const projectOf = (entity: string, id: number) =>
      events.find((event) => event.entity === entity && event.id === id)?.project_id;
    expect(projectOf('projects', project)).toBe(project);
    for (const [entity, id] of Object.entries({
      tasks: ids.tasks,
      hours: ids.hours,
      'project-estimates': ids['project-estimates'],
      'project-costs': cost,
    })) {
      expect([entity, projectOf(entity, id)]).toEqual([entity, project]);
    }
    expect(projectOf('clients', client)).toBeNull();
  });

  it('pages by cursor: each page continues exactly after the previous one', async () => {
    const start = await latestCursor();
    const ids: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      ids.push(
        await created('/brands', {
          name: `Brand ${i}`,
          client_id: await created('/clients', { name: `C${i}` }),
        }),
      );
    }
    const seen: FeedEvent[] = [];
    let cursor = start;
    for (;;) {
      const page = await feed(cursor, 3);
      if (page.data.length === 0) {
        expect(page.next_cursor).toBe(cursor);
        break;
      }
      expect(page.data.length).toBeLessThanOrEqual(3);
      seen.push(...page.data);
      cursor = page.next_cursor;
    }

    const cursors = seen.map((event) => BigInt(event.cursor));
    expect(cursors).toEqual([...cursors].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(new Set(cursors).size).toBe(cursors.length);
    expect(seen.filter((event) => event.entity === 'brands').map((event) => event.id)).toEqual(ids);
  });

  it('writes no event for a change that rolled back', async () => {
    const start = await latestCursor();
    const clientId = await created('/clients', { name: 'Rollback' });
    const position = await created('/positions', { name: 'Designer' });
    const before = (await feed(start)).next_cursor;

    // The project row is written, then the duplicate estimate line fails the transaction.
    const failed = await app.call('POST', '/projects', {
      name: 'Never',
      client_id: clientId,
      users_positions: [{ id: position }, { id: position }],
    });
    const runner = app.dataSource.createQueryRunner();
    await runner.startTransaction();
    await runner.query('INSERT INTO clients (company_id, name) VALUES ($1, $2)', [
      app.companies[0].companyId,
      'Ghost',
    ]);
    await runner.rollbackTransaction();
    await runner.release();

    expect(failed.statusCode).toBe(400);
    expect((await feed(before)).data).toEqual([]);
  });

  it('merges the changes of one entity in one transaction into one event', async () => {
    const start = await latestCursor();
    const clientId = await created('/clients', { name: 'Merge' });
    const designer = await created('/positions', { name: 'Designer' });
    const userId = await created('/users', {
      first_name: 'Ann',
      last_name: 'Lee',
      email: 'ann@merge.test',
      role_id: 4,
    });
    const afterSetup = (await feed(start)).next_cursor;

    // Project row, its estimate line, then estimated_time: one transaction.
    const projectId = await created('/projects', {
      name: 'Merged',
      client_id: clientId,
      estimated_by_position: true,
      users_positions: [{ id: designer, estimated_time: 10 }],
    });
    const week = [1, 2, 3, 4, 5].map((day) => ({
      day_of_week: day,
      daily_hours: 8,
      start_at: '09:00:00',
      end_at: '17:00:00',
    }));
    expect((await app.call('PUT', `/working-time/users/${userId}`, { entries: week })).statusCode).toBe(200);

    const { data } = await feed(afterSetup);

    expect(data).toEqual([
      expect.objectContaining({ entity: 'projects', id: projectId, kind: 'created' }),
      expect.objectContaining({
        entity: 'working-time',
        id: userId,
        kind: 'updated',
        changed_fields: ['entries'],
      }),
    ]);
    expect(data[0].changed_fields).toEqual(
      expect.arrayContaining(['name', 'users_positions', 'estimated_time']),
    );
  });

  it('never names credential fields', async () => {
    const start = await latestCursor();
    await created('/users', { first_name: 'Bo', last_name: 'Ray', email: 'bo@creds.test', role_id: 4 });

    const [event] = (await feed(start)).data;

    expect(event).toMatchObject({ entity: 'users', kind: 'created' });
    expect(event.changed_fields.filter((field) => /password|secret|hash/.test(field))).toEqual([]);
  });

  it('carries X-Change-Origin into the events, and never onto the next request on the same connection', async () => {
    const start = await latestCursor();
    const fromJira = await created('/clients', { name: 'From Jira' }, { headers: signedOrigin('JIRA') });
    const direct: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      direct.push(await created('/clients', { name: `Direct ${i}` }));
    }

    const { data } = await feed(start);

    expect(data.find((event) => event.id === fromJira)).toMatchObject({ origin: 'JIRA' });
    expect(data.filter((event) => direct.includes(event.id)).map((event) => event.origin)).toEqual(
      direct.map(() => null),
    );
  });

  it('honours X-Change-Origin only from the integrations service (signed with CHANGE_ORIGIN_KEY)', async () => {
    const unsigned = await app.call(
      'POST',
      '/clients',
      { name: 'Hidden?' },
      { headers: { 'x-change-origin': 'JIRA' } },
    );
    const forged = await app.call(
      'POST',
      '/clients',
      { name: 'Hidden?' },
      { headers: { ...signedOrigin('JIRA'), 'x-change-origin-signature': 'Zm9yZ2Vk' } },
    );
    // A signature made for another caller's token does not carry over to this one.
    const replayed = await app.call(
      'POST',
      '/clients',
      { name: 'Hidden?' },
      {
        headers: {
          'x-change-origin': 'JIRA',
          'x-change-origin-signature': signedOrigin('JIRA')['x-change-origin-signature'],
        },
      },
    );
    const otherKey = await app.call(
      'POST',
      '/clients',
      { name: 'Hidden?' },
      { headers: signedOrigin('JIRA', randomBytes(32).toString('base64')) },
    );

    for (const refused of [unsigned, forged, replayed, otherKey]) {
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({
        code: 'AC006',
        message: 'X-Change-Origin is reserved to the integrations service',
      });
    }
  });

  it('refuses an unknown origin, a malformed cursor or limit, roles 3-6, and shows nothing of another company', async () => {
    const unknownOrigin = await app.call(
      'POST',
      '/clients',
      { name: 'X' },
      { headers: { 'x-change-origin': 'MYSPACE' } },
    );
    expect(unknownOrigin.statusCode).toBe(400);
    expect(fieldsOf(unknownOrigin)).toEqual(['X-Change-Origin']);
    // The caller is verified first: without a token the answer is 401 whatever the origin says.
    const anonymous = await app.call(
      'POST',
      '/clients',
      { name: 'X' },
      { headers: { 'x-change-origin': 'MYSPACE', authorization: '' } },
    );
    expect(anonymous.statusCode).toBe(401);
    for (const query of [
      'after=abc',
      'after=-1',
      'after=1e3',
      'after=1234567890123456789',
      'limit=0',
      'limit=1001',
      'limit=x',
    ]) {
      const response = await app.call('GET', `/events?${query}`);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'AC002' });
    }
    for (const role of [3, 4, 5, 6]) {
      expect((await app.call('GET', '/events', undefined, { role })).statusCode).toBe(403);
    }
    await created('/clients', { name: 'Theirs' }, { company: otherCompany });

    const mine = await feed('0');
    const theirs = await feed('0', 1000, { company: otherCompany });

    // Provisioning created their C-Level user; then their client.
    expect(theirs.data.map((event) => event.entity)).toEqual(['users', 'clients']);
    const mineCursors = new Set(mine.data.map((event) => event.cursor));
    expect(theirs.data.filter((event) => mineCursors.has(event.cursor))).toEqual([]);
  });

  it('loses no event when many writers commit while a consumer reads', async () => {
    const start = await latestCursor();
    const collected: FeedEvent[] = [];
    let writing = true;
    const consumer = (async () => {
      let cursor = start;
      while (writing || collected.length < 40) {
        const page = await feed(cursor, 7);
        collected.push(...page.data);
        cursor = page.next_cursor;
        if (!writing && page.data.length === 0) {
          break;
        }
      }
    })();
    const ids = await Promise.all(
      Array.from({ length: 40 }, (_, i) => created('/clients', { name: `Concurrent ${i}` })),
    );
    writing = false;
    await consumer;

    expect(
      collected
        .filter((event) => event.entity === 'clients')
        .map((event) => event.id)
        .sort((a, b) => a - b),
    ).toEqual([...ids].sort((a, b) => a - b));
  });

  it('prunes events past the retention period and answers 410 to a cursor behind it', async () => {
    const clientId = await created('/clients', { name: 'Old news' });
    const oldPage = await feed('0');
    const oldCursor = oldPage.data[0].cursor;
    await app.dataSource.query(
      `UPDATE change_events SET occurred_at = now() - interval '31 days' WHERE company_id = $1 AND "cursor" <= $2`,
      [app.companies[0].companyId, oldPage.next_cursor],
    );
    const kept = await created('/clients', { name: 'Fresh' });
    const theirsBefore = (await feed('0', 1000, { company: otherCompany })).data;

    await app.service.app.get(RetentionPruner).runOnce(['change_events']);
    const expired = await app.call('GET', `/events?after=${oldCursor}`);
    const fromStart = await feed('0');

    expect(expired.statusCode).toBe(410);
    expect(expired.json<{ code: string; message: string }>()).toMatchObject({
      code: 'AC003',
      message: expect.stringContaining('CursorExpiredError'),
    });
    expect(fromStart.data.map((event) => event.id)).toEqual([kept]);
    expect(fromStart.data.map((event) => event.id)).not.toContain(clientId);
    // The other company's events are not touched by this company's watermark.
    expect((await feed('0', 1000, { company: otherCompany })).data).toEqual(theirsBefore);
  });
});
