import { fieldsOf, startMainApiTestApp, type MainApiTestApp } from './support/main-api-test-app';

interface CursorPage<T> {
  data: T[];
  next_cursor: string | null;
  has_more: boolean;
}
interface Named {
  id: number;
  name: string;
  deleted_at?: string | null;
}
interface Entry {
  id: number;
  date: string;
  hours: number;
}

/**
 * Lists as a frontend or a sync job reads them (issue 36): cursors with a sort, range filters,
 * changes since a moment, tombstones; and the interface's page/perPage body untouched beside them.
 */
describe('main-api list conventions (e2e)', () => {
  let app: MainApiTestApp;
  let projectId: number;
  let positionId: number;

  beforeAll(async () => {
    app = await startMainApiTestApp(['Lists A', 'Lists B']);
    const clientId = (await app.call('POST', '/clients', { name: 'Hours client' })).json<Named>().id;
    positionId = (await app.call('POST', '/positions', { name: 'Designer' })).json<Named>().id;
    projectId = (await app.call('POST', '/projects', { name: 'Hours', client_id: clientId })).json<Named>()
      .id;
  });

  afterAll(() => app.close());

  const list = <T>(resource: string, query: Record<string, string>) =>
    app.call('GET', `/${resource}?${new URLSearchParams(query).toString()}`).then((response) => {
      expect(response.statusCode).toBe(200);
      return response.json<T>();
    });

  /** Every page of a cursor list, following next_cursor. */
  async function everyPage<T>(resource: string, query: Record<string, string>): Promise<T[][]> {
    const pages: T[][] = [];
    let cursor: string | null = null;
    do {
      const page: CursorPage<T> = await list<CursorPage<T>>(resource, {
        ...query,
        ...(cursor ? { cursor } : {}),
      });
      pages.push(page.data);
      expect(page.has_more).toBe(page.next_cursor !== null);
      cursor = page.next_cursor;
    } while (cursor);
    return pages;
  }

  it('walks a list by cursor in the order of sort, each row once, ties broken by id', async () => {
    const names = ['delta', 'alpha', 'charlie', 'alpha', 'bravo', 'echo', 'bravo'];
    for (const name of names) {
      await app.call('POST', '/brands', {
        name: `Cursor ${name}`,
        client_id: (await app.call('POST', '/clients', { name: `Cursor owner ${name}` })).json<Named>().id,
      });
    }
    const filters = JSON.stringify({ name: 'Cursor ' });

    const pages = await everyPage<Named>('brands', { limit: '3', sort: '-name', filters });

    expect(pages.map((page) => page.length)).toEqual([3, 3, 1]);
    const rows = pages.flat();
    expect(rows.map((row) => row.name)).toEqual(
      [...names]
        .sort()
        .reverse()
        .map((name) => `Cursor ${name}`),
    );
    // Equal names come in id order.
    const alphas = rows.filter((row) => row.name === 'Cursor alpha').map((row) => row.id);
    expect(alphas).toEqual([...alphas].sort((a, b) => a - b));
    expect(new Set(rows.map((row) => row.id)).size).toBe(names.length);
  });

  it('resumes exactly on timestamps written in one transaction (microseconds apart or equal)', async () => {
    // One statement: every row gets the same created_at, so only the id orders them.
    const companyId = app.companies[0].companyId;
    await app.dataSource.query(
      `INSERT INTO main_api.labels (company_id, name, color, model) SELECT $1, 'Same instant ' || g, '#000000', 'project' FROM generate_series(1, 7) g`,
      [companyId],
    );
    const filters = JSON.stringify({ name: 'Same instant' });
    const pages = await everyPage<Named>('labels', { limit: '2', sort: 'created_at', filters });
    const ids = pages.flat().map((row) => row.id);
    expect(ids).toHaveLength(7);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it('walks a list with members (a to-many join) by cursor, and by updated_at', async () => {
    const user = (
      await app.call('POST', '/users', {
        first_name: 'M',
        last_name: 'Ember',
        email: 'm@lists.test',
        role_id: 4,
      })
    ).json<Named>().id;
    for (const name of ['Team c', 'Team a', 'Team b', 'Team d']) {
      const team = (await app.call('POST', '/teams', { name })).json<Named>().id;
      await app.call('POST', `/teams/${team}/users`, { user_ids: [user] });
    }
    const filters = JSON.stringify({ name: 'Team ' });
    const byName = await everyPage<Named>('teams', { limit: '3', sort: 'name', filters });
    expect(byName.flat().map((team) => team.name)).toEqual(['Team a', 'Team b', 'Team c', 'Team d']);
    const byChange = await everyPage<Named>('teams', { limit: '1', sort: '-updated_at', filters });
    expect(byChange.flat().map((team) => team.name)).toEqual(['Team d', 'Team b', 'Team a', 'Team c']);
  });

  it('lists time entries by a date range, sorted by date, by cursor', async () => {
    for (const [date, hours] of [
      ['2027-01-04', 2],
      ['2027-01-15', 3],
      ['2027-01-31', 4],
      ['2027-02-01', 5],
      ['2026-12-31', 6],
    ] as const) {
      const logged = await app.call('POST', '/hours', {
        user_id: 1,
        project_id: projectId,
        user_position_id: positionId,
        date,
        hours,
      });
      expect(logged.statusCode).toBe(201);
    }
    const january = JSON.stringify({ project_id: projectId, date: { gte: '2027-01-01', lte: '2027-01-31' } });

    const pages = await everyPage<Entry>('hours', { limit: '2', sort: '-date', filters: january });

    expect(pages.flat().map((entry) => entry.date)).toEqual(['2027-01-31', '2027-01-15', '2027-01-04']);
    const many = JSON.stringify({ project_id: projectId, hours: { gt: 3 }, date: { lt: '2027-02-01' } });
    expect(
      (await list<Entry[]>('hours', { page: 'false', filters: many })).map((entry) => entry.hours).sort(),
    ).toEqual([4, 6]);
  });

  it('keeps the interface body without limit or cursor, with sort applied', async () => {
    const page = await list<{ total: string; page: number; data: Named[] }>('brands', {
      page: '1',
      perPage: '2',
      sort: 'name',
      filters: JSON.stringify({ name: 'Cursor ' }),
    });
    expect(page).toMatchObject({ total: '7', page: 1, perPage: 2, lastPage: 4 });
    expect(page.data.map((row) => row.name)).toEqual(['Cursor alpha', 'Cursor alpha']);
  });

  it('answers what changed since a moment, deletions included as tombstones', async () => {
    const kept = (await app.call('POST', '/clients', { name: 'Sync kept' })).json<Named>().id;
    const gone = (await app.call('POST', '/clients', { name: 'Sync gone' })).json<Named>().id;
    const [{ now }] = await app.dataSource.query<{ now: Date }[]>('SELECT now() AS now');
    const since = new Date(now.getTime() + 1).toISOString();
    await new Promise((resolve) => setTimeout(resolve, 5));
    await app.call('PUT', `/clients/${kept}`, { phone: '+1 555 0100' });
    await app.call('DELETE', `/clients/${gone}`);

    const changed = await list<Named[]>('clients', { page: 'false', updated_since: since });
    expect(changed.map((row) => row.id)).toEqual([kept]);

    const withTombstones = await list<Named[]>('clients', {
      page: 'false',
      updated_since: since,
      include_deleted: 'true',
    });
    expect(withTombstones.map((row) => [row.id, row.deleted_at === null])).toEqual([
      [kept, true],
      [gone, false],
    ]);
  });

  it.each([
    [{ sort: 'phone' }, 'sort'],
    [{ sort: 'name,name' }, 'sort'],
    [{ sort: 'name;drop' }, 'sort'],
    [{ limit: '0' }, 'limit'],
    [{ limit: '501' }, 'limit'],
    [{ limit: '2', page: '1' }, 'cursor'],
    [{ cursor: 'not-a-cursor' }, 'cursor'],
    [{ updated_since: '2026-11-27' }, 'updated_since'],
    [{ include_deleted: 'yes' }, 'include_deleted'],
    [{ filters: JSON.stringify({ name: { gte: 'a' } }) }, 'filters.name.gte'],
    [{ filters: JSON.stringify({ archived: { between: 1 } }) }, 'filters.archived.between'],
    [{ filters: JSON.stringify({ currency_id: { in: 3 } }) }, 'filters.currency_id.in'],
    [{ filters: JSON.stringify({ currency_id: {} }) }, 'filters.currency_id'],
  ])('refuses %j with a 400 naming %s', async (query, field) => {
    const response = await app.call(
      'GET',
      `/clients?${new URLSearchParams(query as Record<string, string>).toString()}`,
    );
    expect(response.statusCode).toBe(400);
    expect(fieldsOf(response)).toContain(field);
  });

  it('refuses a date range that is no day, naming the operator', async () => {
    const response = await app.call(
      'GET',
      `/hours?filters=${encodeURIComponent(JSON.stringify({ date: { gte: '2027-02-30' } }))}`,
    );
    expect(response.statusCode).toBe(400);
    expect(fieldsOf(response)).toEqual(['filters.date.gte']);
  });

  it('refuses a cursor made for another sort', async () => {
    await app.call('POST', '/clients', { name: 'Sort A' });
    await app.call('POST', '/clients', { name: 'Sort B' });
    const first = await list<CursorPage<Named>>('clients', { limit: '1', sort: 'name' });
    const response = await app.call('GET', `/clients?limit=1&sort=-name&cursor=${first.next_cursor}`);
    expect(response.statusCode).toBe(400);
    expect(fieldsOf(response)).toEqual(['cursor']);
  });

  it("never shows another company's rows, by cursor or tombstone", async () => {
    const other = app.companies[1].companyId;
    const theirs = (await app.call('POST', '/clients', { name: 'Theirs' }, { company: other })).json<Named>()
      .id;
    await app.call('DELETE', `/clients/${theirs}`, undefined, { company: other });
    const rows = (await everyPage<Named>('clients', { limit: '50', include_deleted: 'true' })).flat();
    expect(rows.map((row) => row.id)).not.toContain(theirs);
  });
  describe('sparse fieldsets (fields=)', () => {
    it('keeps only the fields asked for, and id, in each result of a cursor page', async () => {
      await app.call('POST', '/clients', { name: 'Sparse one', phone: '+1 555 0111' });
      const page = await list<CursorPage<Record<string, unknown>>>('clients', {
        limit: '50',
        sort: 'name',
        fields: 'name,updated_at',
      });
      expect(page.data.length).toBeGreaterThan(0);
      for (const client of page.data) {
        expect(Object.keys(client).sort()).toEqual(['id', 'name', 'updated_at']);
      }
      expect(page.data).toContainEqual(expect.objectContaining({ name: 'Sparse one' }));
    });

    it('names an unknown field in the 400, and asks for a cursor page', async () => {
      const unknown = await app.call('GET', '/clients?limit=5&fields=name,colour');
      expect(unknown.statusCode).toBe(400);
      expect(fieldsOf(unknown)).toEqual(['fields']);
      expect(unknown.json<{ message: string }>().message).toMatch(/colour is not a field/);

      const paged = await app.call('GET', '/clients?fields=name');
      expect(paged.statusCode).toBe(400);
      expect(paged.json<{ message: string }>().message).toMatch(/with limit or cursor/);

      const malformed = await app.call('GET', '/clients?limit=5&fields=Name;drop');
      expect(malformed.statusCode).toBe(400);
      expect(fieldsOf(malformed)).toEqual(['fields']);
    });

    it('answers 401 before judging fields', async () => {
      const anonymous = await app.service.app.inject({ method: 'GET', url: '/v1/clients?fields=nope' });
      expect(anonymous.statusCode).toBe(401);
    });
  });
});
