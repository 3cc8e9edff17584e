import { signTestToken, TEST_ALLOWED_ORIGIN } from '@platform/testing';
import { startMainApiTestApp, type MainApiTestApp } from './support/main-api-test-app';

interface Project {
  id: number;
  version: number;
  name: string;
  brief?: string | null;
}
interface Entry {
  id: number;
  date: string;
  hours: number;
}

/**
 * The API conventions of issue 36 as a planning board's frontend uses them: over real HTTP with
 * fetch from the board's origin (CORS), two people editing one project (ETag, If-Match, 412), the
 * week's time entries by cursor with sort, sparse fields and a date range, moving them by a week
 * with a batch previewed as a dry run first, and the quota read from the answers' headers.
 */
describe('main-api as a board frontend uses it (e2e)', () => {
  let app: MainApiTestApp;
  let baseUrl: string;
  let projectId: number;
  let positionId: number;

  /** fetch as the board page sends it: its origin, a user's bearer token, JSON. */
  const board =
    (subject: string) =>
    (path: string, init: { method?: string; body?: object; headers?: Record<string, string> } = {}) =>
      fetch(`${baseUrl}/v1${path}`, {
        method: init.method ?? 'GET',
        headers: {
          origin: TEST_ALLOWED_ORIGIN,
          authorization: `Bearer ${signTestToken({
            keys: app.keys,
            companyId: app.companies[0].companyId,
            roleId: 1,
            subject,
          })}`,
          ...(init.body ? { 'content-type': 'application/json' } : {}),
          ...init.headers,
        },
        ...(init.body ? { body: JSON.stringify(init.body) } : {}),
      });
  const alice = board('user:1');
  const bob = board('user:1');

  const created = async (path: string, body: object): Promise<number> => {
    const answer = await alice(path, { method: 'POST', body });
    expect(answer.status).toBe(201);
    return ((await answer.json()) as { id: number }).id;
  };

  beforeAll(async () => {
    app = await startMainApiTestApp(['Board']);
    baseUrl = await app.listen();
    const client = await created('/clients', { name: 'Board client' });
    positionId = await created('/positions', { name: 'Designer' });
    projectId = await created('/projects', { name: 'Launch', client_id: client });
  });

  afterAll(() => app.close());

  it('lets the second of two editors learn of the first (ETag, If-Match, 412) and merge', async () => {
    const [aliceRead, bobRead] = await Promise.all([
      alice(`/projects/${projectId}`),
      bob(`/projects/${projectId}`),
    ]);
    // The page can read the tag cross-origin.
    expect(aliceRead.headers.get('access-control-expose-headers')?.toLowerCase()).toContain('etag');
    const tag = aliceRead.headers.get('etag') as string;
    expect(bobRead.headers.get('etag')).toBe(tag);

    const aliceSaves = await alice(`/projects/${projectId}`, {
      method: 'PUT',
      body: { name: 'Launch (renamed)' },
      headers: { 'if-match': tag },
    });
    expect(aliceSaves.status).toBe(200);
    const bobSaves = await bob(`/projects/${projectId}`, {
      method: 'PUT',
      body: { brief: 'Bob was here' },
      headers: { 'if-match': tag },
    });
    expect(bobSaves.status).toBe(412);
    const conflict = (await bobSaves.json()) as { code: string; current: Project };
    expect(conflict.code).toBe('AC009');
    expect(conflict.current).toMatchObject({ id: projectId, name: 'Launch (renamed)', version: 2 });

    // Bob's page shows Alice's change, keeps his, and saves on the tag the 412 gave.
    const merged = await bob(`/projects/${projectId}`, {
      method: 'PUT',
      body: { brief: 'Bob was here' },
      headers: { 'if-match': bobSaves.headers.get('etag') as string },
    });
    expect(merged.status).toBe(200);
    expect(await merged.json()).toMatchObject({
      name: 'Launch (renamed)',
      brief: 'Bob was here',
      version: 3,
    });

    // A poll of the unchanged project costs a 304.
    const poll = await alice(`/projects/${projectId}`, {
      headers: { 'if-none-match': merged.headers.get('etag') as string },
    });
    expect(poll.status).toBe(304);
  });

  it('reads the week by cursor with sort, fields and a date range, moves it with a previewed batch, and paces itself by the quota', async () => {
    const days = ['2027-03-01', '2027-03-02', '2027-03-03', '2027-03-04', '2027-03-05', '2027-03-08'];
    for (const date of days) {
      const saved = await alice('/hours', {
        method: 'POST',
        body: { user_id: 1, project_id: projectId, user_position_id: positionId, date, hours: 4 },
      });
      expect(saved.status).toBe(201);
    }

    // The board's week: Monday to Friday, two rows a request, latest first, only what it draws.
    const filters = encodeURIComponent(JSON.stringify({ date: { gte: '2027-03-01', lte: '2027-03-05' } }));
    const week: Entry[] = [];
    let cursor: string | null = null;
    do {
      const query = `limit=2&sort=-date&fields=date,hours&filters=${filters}${cursor ? `&cursor=${cursor}` : ''}`;
      const page = await alice(`/hours?${query}`);
      expect(page.status).toBe(200);
      const body = (await page.json()) as { data: Entry[]; next_cursor: string | null };
      week.push(...body.data);
      cursor = body.next_cursor;
    } while (cursor);
    expect(week.map((entry) => entry.date)).toEqual([...days.slice(0, 5)].reverse());
    expect(week.every((entry) => Object.keys(entry).sort().join() === 'date,hours,id')).toBe(true);

    // Dragging the week one week later: the preview first (nothing saved), then the move.
    const move = {
      operations: week.map((entry) => ({
        ref: `entry-${entry.id}`,
        method: 'PUT',
        path: `/v1/hours/${entry.id}`,
        body: {
          date: new Date(Date.parse(`${entry.date}T00:00:00Z`) + 7 * 86_400_000).toISOString().slice(0, 10),
        },
      })),
    };
    const preview = await alice('/batch', { method: 'POST', body: { ...move, dry_run: true } });
    expect(preview.status).toBe(200);
    const previewed = (await preview.json()) as {
      committed: boolean;
      results: { status: number; body: Entry }[];
    };
    expect(previewed.committed).toBe(false);
    expect(previewed.results.map((result) => result.body.date)).toEqual([
      '2027-03-12',
      '2027-03-11',
      '2027-03-10',
      '2027-03-09',
      '2027-03-08',
    ]);
    const unchanged = await (await alice(`/hours?filters=${filters}&page=false`)).json();
    expect((unchanged as Entry[]).length).toBe(5);

    const moved = await alice('/batch', {
      method: 'POST',
      body: move,
      headers: { 'idempotency-key': 'move-week-1' },
    });
    expect(moved.status).toBe(200);
    expect(((await moved.json()) as { committed: boolean }).committed).toBe(true);
    const after = (await (await alice(`/hours?filters=${filters}&page=false`)).json()) as Entry[];
    expect(after).toEqual([]);

    // The quota, as the page reads it before its next burst: the batch counted 1 + 5.
    const policy = moved.headers.get('ratelimit-policy') as string;
    const left = moved.headers.get('ratelimit') as string;
    expect(moved.headers.get('access-control-expose-headers')?.toLowerCase()).toContain('ratelimit');
    expect(policy).toMatch(/^"tenant";q=\d+;w=60$/);
    expect(left).toMatch(/^"tenant";r=\d+;t=\d+$/);
    const quota = Number(/q=(\d+)/.exec(policy)?.[1]);
    expect(Number(/r=(\d+)/.exec(left)?.[1])).toBeLessThan(quota);
  });
});
