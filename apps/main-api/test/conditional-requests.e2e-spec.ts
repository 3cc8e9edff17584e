import { startMainApiTestApp, type MainApiTestApp } from './support/main-api-test-app';

interface Versioned {
  id: number;
  version: number;
  name: string;
}

/**
 * Conditional requests (issue 36) as a frontend uses them: ETags on reads, 304 for a poll that
 * changed nothing, `If-Match` on edits so that of two editors the second learns of the first.
 */
describe('main-api conditional requests (e2e)', () => {
  let app: MainApiTestApp;

  beforeAll(async () => {
    app = await startMainApiTestApp(['Cond A', 'Cond B']);
  });

  afterAll(() => app.close());

  const newClient = async (name = 'Northwind'): Promise<{ id: number; etag: string }> => {
    const created = await app.call('POST', '/clients', { name });
    expect(created.statusCode).toBe(201);
    const read = await app.call('GET', `/clients/${created.json<Versioned>().id}`);
    return { id: created.json<Versioned>().id, etag: String(read.headers.etag) };
  };

  it('tags a resource with its version, answers 304 while it holds, and a new tag once it changed', async () => {
    const { id } = await newClient();

    const first = await app.call('GET', `/clients/${id}`);
    expect(first.json<Versioned>().version).toBe(1);
    expect(first.headers.etag).toMatch(/^"1-[A-Za-z0-9_-]{16}"$/);

    const poll = await app.call('GET', `/clients/${id}`, undefined, {
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(poll.statusCode).toBe(304);
    expect(poll.body).toBe('');
    expect(poll.headers.etag).toBe(first.headers.etag);

    const edited = await app.call('PUT', `/clients/${id}`, { name: 'Northwind Foods' });
    expect(edited.json<Versioned>().version).toBe(2);
    expect(edited.headers.etag).toMatch(/^"2-/);

    const after = await app.call('GET', `/clients/${id}`, undefined, {
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(after.statusCode).toBe(200);
    expect(after.json<Versioned>()).toMatchObject({ version: 2, name: 'Northwind Foods' });
    expect(after.headers.etag).not.toBe(first.headers.etag);
  });

  it('lets the first of two editors win and answers the second 412 with the resource as it is now', async () => {
    const { id, etag } = await newClient('Contoso');

    const alice = await app.call(
      'PUT',
      `/clients/${id}`,
      { name: 'Contoso Ltd' },
      { headers: { 'if-match': etag } },
    );
    const bob = await app.call(
      'PUT',
      `/clients/${id}`,
      { phone: '+1 555 0199' },
      { headers: { 'if-match': etag } },
    );

    expect(alice.statusCode).toBe(200);
    expect(bob.statusCode).toBe(412);
    expect(bob.json()).toMatchObject({
      status: 412,
      name: 'PlatformCustomError',
      code: 'AC009',
      current: { id, version: 2, name: 'Contoso Ltd', phone: null },
    });
    expect(bob.headers.etag).toBe(alice.headers.etag);
    // Nothing of Bob's edit was written; with the tag he was given, his retry goes through.
    expect((await app.call('GET', `/clients/${id}`)).json()).toMatchObject({ phone: null });
    const retry = await app.call(
      'PUT',
      `/clients/${id}`,
      { phone: '+1 555 0199' },
      { headers: { 'if-match': String(bob.headers.etag) } },
    );
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toMatchObject({ version: 3, name: 'Contoso Ltd', phone: '+1 555 0199' });
  });

  it('answers a conditional edit that reads its resource again after writing (teams, ratecards)', async () => {
    const team = (await app.call('POST', '/teams', { name: 'Studio' })).json<Versioned>().id;
    const etag = String((await app.call('GET', `/teams/${team}`)).headers.etag);

    const edited = await app.call(
      'PUT',
      `/teams/${team}`,
      { name: 'Studio North' },
      { headers: { 'if-match': etag } },
    );
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ name: 'Studio North', version: 2 });
    const ratecard = (await app.call('POST', '/ratecards', { name: 'Standard' })).json<Versioned>().id;
    const renamed = await app.call(
      'PUT',
      `/ratecards/${ratecard}`,
      { name: 'Standard 2027' },
      { headers: { 'if-match': String((await app.call('GET', `/ratecards/${ratecard}`)).headers.etag) } },
    );
    expect(renamed.statusCode).toBe(200);
    const removed = await app.call('DELETE', `/teams/${team}`, undefined, {
      headers: { 'if-match': String(edited.headers.etag) },
    });
    expect(removed.statusCode).toBe(200);
  });

  it('lets exactly one of many simultaneous edits based on one version through', async () => {
    const { id, etag } = await newClient('Race');

    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, editor) =>
        app.call('PUT', `/clients/${id}`, { name: `Editor ${editor}` }, { headers: { 'if-match': etag } }),
      ),
    );

    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([200, 412, 412, 412, 412, 412, 412, 412]);
    const winner = answers.find((answer) => answer.statusCode === 200)!.json<Versioned>();
    expect((await app.call('GET', `/clients/${id}`)).json()).toMatchObject({ version: 2, name: winner.name });
  });

  it('refuses a stale delete and keeps the row; `*` and the current tag go through', async () => {
    const { id, etag } = await newClient('Stale delete');
    await app.call('PUT', `/clients/${id}`, { name: 'Renamed' });

    const stale = await app.call('DELETE', `/clients/${id}`, undefined, { headers: { 'if-match': etag } });
    expect(stale.statusCode).toBe(412);
    expect((await app.call('GET', `/clients/${id}`)).statusCode).toBe(200);

    const anyVersion = await app.call(
      'PUT',
      `/clients/${id}`,
      { archived: true },
      { headers: { 'if-match': '*' } },
    );
    expect(anyVersion.statusCode).toBe(200);
    const current = String((await app.call('GET', `/clients/${id}`)).headers.etag);
    const removed = await app.call('DELETE', `/clients/${id}`, undefined, {
      headers: { 'if-match': current },
    });
    expect(removed.statusCode).toBe(200);
    expect(removed.json<{ deleted_at: string | null }>().deleted_at).not.toBeNull();
  });

  it('refuses a tag that names no version (weak, malformed) and a write that would change nothing', async () => {
    const { id, etag } = await newClient('Tags');
    for (const tag of [`W/${etag}`, 'not-a-tag', '"abc"']) {
      const answer = await app.call('PUT', `/clients/${id}`, { name: 'X' }, { headers: { 'if-match': tag } });
      expect(answer.statusCode).toBe(412);
    }
    await app.call('PUT', `/clients/${id}`, { name: 'Moved on' });
    const noChange = await app.call('PUT', `/clients/${id}`, {}, { headers: { 'if-match': etag } });
    expect(noChange.statusCode).toBe(412);
    // A list of tags matches when any of them is current.
    const current = String((await app.call('GET', `/clients/${id}`)).headers.etag);
    const listed = await app.call(
      'PUT',
      `/clients/${id}`,
      { name: 'Listed' },
      { headers: { 'if-match': `${etag}, ${current}` } },
    );
    expect(listed.statusCode).toBe(200);
  });

  it('keeps If-Match optional on the interface routes: a project edit without it is as before', async () => {
    const clientId = (await newClient('Project client')).id;
    const created = await app.call('POST', '/projects', { name: 'Spring', client_id: clientId });
    const projectId = created.json<Versioned>().id;
    const read = await app.call('GET', `/projects/${projectId}`);
    expect(read.headers.etag).toMatch(/^"1-/);

    const unconditional = await app.call('PUT', `/projects/${projectId}`, { name: 'Spring 2027' });
    expect(unconditional.statusCode).toBe(200);
    expect(unconditional.json<Versioned>().version).toBeGreaterThan(1);

    const stale = await app.call(
      'PUT',
      `/projects/${projectId}`,
      { name: 'Lost update', brief: 'overwrites' },
      { headers: { 'if-match': String(read.headers.etag) } },
    );
    expect(stale.statusCode).toBe(412);
    expect(stale.json()).toMatchObject({ code: 'AC009', current: { id: projectId, name: 'Spring 2027' } });
    expect((await app.call('GET', `/projects/${projectId}`)).json()).toMatchObject({
      name: 'Spring 2027',
      brief: '',
    });

    const fresh = String((await app.call('GET', `/projects/${projectId}`)).headers.etag);
    const conditional = await app.call(
      'PUT',
      `/projects/${projectId}`,
      { name: 'Spring launch' },
      { headers: { 'if-match': fresh } },
    );
    expect(conditional.statusCode).toBe(200);
    expect(conditional.json()).toMatchObject({ name: 'Spring launch' });
  });

  it('changes a project detail tag when only a figure it shows changes (another row)', async () => {
    const clientId = (await newClient('Figures client')).id;
    const projectId = (
      await app.call('POST', '/projects', { name: 'Figures', client_id: clientId })
    ).json<Versioned>().id;
    const before = await app.call('GET', `/projects/${projectId}`);

    await app.call('PUT', `/clients/${clientId}`, { name: 'Renamed client' });

    const after = await app.call('GET', `/projects/${projectId}`, undefined, {
      headers: { 'if-none-match': String(before.headers.etag) },
    });
    expect(after.statusCode).toBe(200);
    expect(after.json<Versioned>().version).toBe(before.json<Versioned>().version);
    expect(after.json()).toMatchObject({ client: { name: 'Renamed client' } });
  });

  it('tags a list so that a poll costs a 304 until one of its rows changes', async () => {
    const { id } = await newClient('Listed client');
    const url = `/clients?page=false&filters=${encodeURIComponent(JSON.stringify({ name: 'Listed client' }))}`;
    const first = await app.call('GET', url);
    expect(first.headers.etag).toMatch(/^"[A-Za-z0-9_-]{16}"$/);

    const poll = await app.call('GET', url, undefined, {
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(poll.statusCode).toBe(304);

    await app.call('PUT', `/clients/${id}`, { phone: '+44 20 7946 0000' });
    const changed = await app.call('GET', url, undefined, {
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(changed.statusCode).toBe(200);
  });

  it('checks If-Match on hard deletes too (time entries, transactions)', async () => {
    const clientId = (await newClient('Ledger')).id;
    const created = await app.call('POST', '/transactions', {
      date: '2026-11-20',
      type: 'invoice',
      total: 120,
      currency_change_amount: 120,
      exchange: 1,
      source_id: 3,
      currency_id: 1,
      receipt_number: 'INV-1',
      is_income: true,
      client_id: clientId,
      company_id: app.companies[0].companyId,
      can_update: true,
      can_delete: true,
    });
    expect(created.statusCode).toBe(201);
    const id = created.json<Versioned>().id;

    const stale = await app.call('DELETE', `/transactions/${id}`, undefined, {
      headers: { 'if-match': '"7"' },
    });
    expect(stale.statusCode).toBe(412);
    expect((await app.call('GET', `/transactions/${id}`)).statusCode).toBe(200);
    const current = await app.call('DELETE', `/transactions/${id}`, undefined, {
      headers: { 'if-match': '"1"' },
    });
    expect(current.statusCode).toBe(200);
  });

  it('lets only PostgreSQL set a version: every UPDATE bumps it by one, whatever it wrote', async () => {
    const { id } = await newClient('Raw');
    await app.dataSource.query(`UPDATE main_api.clients SET name = 'Raw 2', version = 99 WHERE id = $1`, [
      id,
    ]);
    await app.dataSource.query(`UPDATE main_api.clients SET name = 'Raw 2' WHERE id = $1`, [id]);
    const [row] = await app.dataSource.query<{ version: number }[]>(
      `SELECT version FROM main_api.clients WHERE id = $1`,
      [id],
    );
    // The second statement changed nothing, so it did not count.
    expect(row.version).toBe(2);
  });

  it('keeps the version out of the change feed', async () => {
    const { id } = await newClient('Feed');
    await app.call('PUT', `/clients/${id}`, { name: 'Feed 2' });
    const feed = await app.call('GET', '/events?after=0&limit=1000');
    const events = feed
      .json<{ data: { entity: string; id: number; changed_fields: string[] }[] }>()
      .data.filter((event) => event.entity === 'clients' && event.id === id);
    expect(events.length).toBeGreaterThan(0);
    for (const event of events) {
      expect(event.changed_fields).not.toContain('version');
    }
    expect(events.at(-1)?.changed_fields).toEqual(['name']);
  });

  it("answers another company's tag as a plain 404", async () => {
    const { id, etag } = await newClient('Private');
    const other = await app.call(
      'PUT',
      `/clients/${id}`,
      { name: 'Mine now' },
      { company: app.companies[1].companyId, headers: { 'if-match': etag } },
    );
    expect(other.statusCode).toBe(404);
  });
});
