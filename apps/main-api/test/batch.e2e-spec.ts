import { fieldsOf, startMainApiTestApp, type MainApiTestApp } from './support/main-api-test-app';

interface BatchResult {
  ref?: string;
  index: number;
  status: number;
  headers: { etag?: string; location?: string };
  body: Record<string, unknown> | null;
}

interface BatchAnswer {
  committed: boolean;
  dry_run: boolean;
  results: BatchResult[];
}

/**
 * `POST /v1/batch` (issue 36): operations through the routes themselves, one transaction, atomic or
 * not, dry runs that leave nothing, references between operations, and one Idempotency-Key.
 */
describe('main-api batches (e2e)', () => {
  let app: MainApiTestApp;

  beforeAll(async () => {
    app = await startMainApiTestApp(['Batch A', 'Batch B']);
  });

  afterAll(() => app.close());

  const clientNames = async (company = app.companies[0].companyId): Promise<string[]> =>
    (
      await app.dataSource.query<{ name: string }[]>(
        'SELECT name FROM clients WHERE company_id = $1 AND deleted_at IS NULL ORDER BY id',
        [company],
      )
    ).map((row) => row.name);

  it('creates a client and its brand in one atomic batch, the brand naming the client by reference', async () => {
    const answer = await app.call('POST', '/batch', {
      operations: [
        { ref: 'acme', method: 'POST', path: '/v1/clients', body: { name: 'Acme' } },
        {
          ref: 'brand',
          method: 'POST',
          path: '/v1/brands',
          body: { name: 'Acme Rockets', client_id: '{{acme.id}}' },
        },
        { method: 'PUT', path: '/v1/clients/{{acme.id}}', body: { phone: '+1 555 0100' } },
      ],
    });

    expect(answer.statusCode).toBe(200);
    const { committed, dry_run, results } = answer.json<BatchAnswer>();
    expect({ committed, dry_run }).toEqual({ committed: true, dry_run: false });
    expect(results.map((result) => [result.ref, result.index, result.status])).toEqual([
      ['acme', 0, 201],
      ['brand', 1, 201],
      [undefined, 2, 200],
    ]);
    const clientId = results[0].body?.id as number;
    expect(results[1].body).toMatchObject({ name: 'Acme Rockets', client_id: clientId });
    expect(results[2].body).toMatchObject({ id: clientId, phone: '+1 555 0100', version: 2 });
    expect(results[2].headers.etag).toMatch(/^"2-/);
    expect(await clientNames()).toContain('Acme');
  });

  it('saves nothing of an atomic batch with one failing operation and answers 409 with every result', async () => {
    const before = await clientNames();
    const answer = await app.call('POST', '/batch', {
      operations: [
        { ref: 'ok', method: 'POST', path: '/v1/clients', body: { name: 'Kept only if all pass' } },
        { ref: 'bad', method: 'POST', path: '/v1/clients', body: { name: '' } },
        { ref: 'brand', method: 'POST', path: '/v1/brands', body: { name: 'B', client_id: '{{bad.id}}' } },
        { ref: 'gone', method: 'DELETE', path: '/v1/clients/999999' },
      ],
    });

    expect(answer.statusCode).toBe(409);
    const body = answer.json<{ status: number; code: string; message: string; results: BatchResult[] }>();
    expect(body).toMatchObject({ status: 409, name: 'PlatformCustomError', code: 'AC004' });
    expect(body.message).toMatch(/3 of 4 operations failed/);
    expect(body.results.map((result) => result.status)).toEqual([201, 400, 424, 404]);
    expect(body.results[1].body).toMatchObject({ code: 'AC002' });
    expect(body.results[2].body).toMatchObject({ status: 424, message: expect.stringMatching(/"bad"/) });
    expect(await clientNames()).toEqual(before);
  });

  it('keeps what succeeded when not atomic, answering 207', async () => {
    const answer = await app.call('POST', '/batch', {
      atomic: false,
      operations: [
        { method: 'POST', path: '/v1/clients', body: { name: 'Partial one' } },
        { method: 'POST', path: '/v1/clients', body: { name: 42 } },
        { method: 'POST', path: '/v1/clients', body: { name: 'Partial three' } },
      ],
    });

    expect(answer.statusCode).toBe(207);
    const { committed, results } = answer.json<BatchAnswer>();
    expect(committed).toBe(true);
    expect(results.map((result) => result.status)).toEqual([201, 400, 201]);
    expect(await clientNames()).toEqual(expect.arrayContaining(['Partial one', 'Partial three']));
  });

  it('answers a dry run in full and saves nothing, not even in the change feed', async () => {
    const before = await clientNames();
    const [{ max: lastEvent }] = await app.dataSource.query<{ max: string | null }[]>(
      'SELECT max(cursor)::text AS max FROM change_events',
    );
    const answer = await app.call('POST', '/batch', {
      dry_run: true,
      operations: [
        { ref: 'c', method: 'POST', path: '/v1/clients', body: { name: 'Preview' } },
        { method: 'POST', path: '/v1/brands', body: { name: 'Preview brand', client_id: '{{c.id}}' } },
      ],
    });

    expect(answer.statusCode).toBe(200);
    const { committed, dry_run, results } = answer.json<BatchAnswer>();
    expect({ committed, dry_run }).toEqual({ committed: false, dry_run: true });
    expect(results.map((result) => result.status)).toEqual([201, 201]);
    expect(await clientNames()).toEqual(before);
    const [{ max: lastAfter }] = await app.dataSource.query<{ max: string | null }[]>(
      'SELECT max(cursor)::text AS max FROM change_events',
    );
    expect(lastAfter).toBe(lastEvent);
  });

  it("holds each operation to its route's If-Match, permissions and company", async () => {
    const created = await app.call('POST', '/clients', { name: 'Guarded' });
    const id = created.json<{ id: number }>().id;
    const other = await app.call(
      'POST',
      '/clients',
      { name: 'Theirs' },
      { company: app.companies[1].companyId },
    );
    const theirs = other.json<{ id: number }>().id;

    const answer = await app.call('POST', '/batch', {
      atomic: false,
      operations: [
        {
          method: 'PUT',
          path: `/v1/clients/${id}`,
          body: { name: 'Stale' },
          if_match: '"7-0000000000000000"',
        },
        { method: 'PUT', path: `/v1/clients/${theirs}`, body: { name: 'Hijacked' } },
      ],
    });
    expect(answer.json<BatchAnswer>().results.map((result) => result.status)).toEqual([412, 404]);
    expect(answer.json<BatchAnswer>().results[0].body).toMatchObject({ code: 'AC009', current: { id } });

    // A collaborator (role 5) may not write clients: the same 403 as the route alone.
    const collaborator = await app.call(
      'POST',
      '/batch',
      { operations: [{ method: 'POST', path: '/v1/clients', body: { name: 'Nope' } }] },
      { role: 5 },
    );
    expect(collaborator.statusCode).toBe(409);
    expect(collaborator.json<{ results: BatchResult[] }>().results[0].status).toBe(403);
  });

  it('refuses, before running anything, operations outside the data routes and unknown references', async () => {
    const answer = await app.call('POST', '/batch', {
      operations: [
        { method: 'POST', path: '/v1/oauth/token', body: {} },
        { method: 'POST', path: '/v1/batch', body: { operations: [] } },
        { method: 'POST', path: '/v1/clients', body: { name: '{{later.id}}' } },
        { ref: 'later', method: 'POST', path: '/v1/clients', body: { name: 'x' } },
        { ref: 'later', method: 'POST', path: '/v1/clients/../oauth/revoke' },
      ],
    });
    expect(answer.statusCode).toBe(400);
    expect(fieldsOf(answer)).toEqual([
      'operations[0].path',
      'operations[1].path',
      'operations[2]',
      'operations[4].ref',
      'operations[4].path',
    ]);
    expect(await clientNames()).not.toContain('x');
  });

  it('validates each operation as a request', async () => {
    const answer = await app.call('POST', '/batch', {
      operations: [{ method: 'GET', path: 'clients', body: 'text', ref: 'has space' }],
      atomic: 'yes',
    });
    expect(answer.statusCode).toBe(400);
    expect(fieldsOf(answer).sort()).toEqual(
      ['atomic', 'operations.0.body', 'operations.0.method', 'operations.0.path', 'operations.0.ref'].sort(),
    );
  });

  it('refuses more than 500 operations', async () => {
    const operations = Array.from({ length: 501 }, () => ({ method: 'DELETE', path: '/v1/clients/1' }));
    const answer = await app.call('POST', '/batch', { operations });
    expect(answer.statusCode).toBe(400);
    expect(fieldsOf(answer)).toContain('operations');
  });

  it('replays a batch for its Idempotency-Key instead of running it twice', async () => {
    const batch = {
      atomic: false,
      operations: [{ method: 'POST', path: '/v1/clients', body: { name: 'Once only' } }],
    };
    const headers = { 'idempotency-key': 'batch-once-1' };
    const first = await app.call('POST', '/batch', batch, { headers });
    const second = await app.call('POST', '/batch', batch, { headers });

    expect(first.statusCode).toBe(207);
    expect(second.statusCode).toBe(207);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.json()).toEqual(first.json());
    expect((await clientNames()).filter((name) => name === 'Once only')).toHaveLength(1);
  });

  it('applies an atomic batch whole or not at all when batches race on the same rows', async () => {
    const created = await app.call('POST', '/clients', { name: 'Contended' });
    const { id } = created.json<{ id: number }>();
    const etag = String((await app.call('GET', `/clients/${id}`)).headers.etag);

    // Ten editors, each renaming the client and adding a brand, all from the same version.
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, editor) =>
        app.call('POST', '/batch', {
          operations: [
            { method: 'PUT', path: `/v1/clients/${id}`, body: { name: `Editor ${editor}` }, if_match: etag },
            {
              method: 'POST',
              path: '/v1/brands',
              body: { name: `Brand of editor ${editor}`, client_id: id },
            },
          ],
        }),
      ),
    );

    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([200, ...Array.from({ length: 9 }, () => 409)]);
    const winner = answers.findIndex((answer) => answer.statusCode === 200);
    const brands = await app.dataSource.query<{ name: string }[]>(
      'SELECT name FROM brands WHERE client_id = $1',
      [id],
    );
    expect(brands.map((brand) => brand.name)).toEqual([`Brand of editor ${winner}`]);
    expect(await clientNames()).toContain(`Editor ${winner}`);
  });
});
