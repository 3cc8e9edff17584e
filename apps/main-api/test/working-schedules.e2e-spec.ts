import { WorkingSchedules1796000001900 } from '../src/database/migrations/1796000001900-WorkingSchedules';
import { fieldsOf, startMainApiTestApp, type MainApiTestApp } from './support/main-api-test-app';

interface Entry {
  daily_hours: number;
  day_of_week: number;
  start_at: string;
  end_at: string;
  user_id: number;
  break_time: number;
}
interface Schedule {
  effective_from: string;
  entries: Entry[];
  version: number;
}

const day = (offset: number): string => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** Monday to Friday (or the days given), `hours` a day. */
const weekOf = (hours: number, days = [1, 2, 3, 4, 5]) =>
  days.map((dayOfWeek) => ({
    day_of_week: dayOfWeek,
    daily_hours: hours,
    start_at: '09:00:00',
    end_at: hours > 8 ? '19:00:00' : '17:00:00',
  }));
const fullTime = weekOf(8);
const partTime = weekOf(4, [1, 2, 3]);

/** Each schedule of an answer as its first day and its days' hours. */
const daysOf = (answer: { json<T>(): T }) =>
  answer
    .json<Schedule[]>()
    .map((each) => [each.effective_from, each.entries.map((entry) => entry.daily_hours)]);

/** Working weeks with history (issue 38): schedules by first day, and the interface's routes on them. */
describe('main-api working schedules (e2e)', () => {
  let app: MainApiTestApp;
  let companyB: number;
  let foreigner: number;

  beforeAll(async () => {
    app = await startMainApiTestApp(['SA', 'SB']);
    [, { companyId: companyB, userId: foreigner }] = app.companies;
  });

  afterAll(() => app.close());

  let people = 0;
  const person = async (): Promise<number> => {
    people += 1;
    const created = await app.call('POST', '/users', {
      first_name: 'Person',
      last_name: `No ${people}`,
      email: `person${people}@schedules.test`,
      role_id: 4,
    });
    expect(created.statusCode).toBe(201);
    return created.json<{ id: number }>().id;
  };
  const schedules = (userId: number, query = '') =>
    app.call('GET', `/working-time/users/${userId}/schedules${query}`);
  const schedule = async (userId: number, effectiveFrom: string, entries: object[]): Promise<Schedule> => {
    const created = await app.call('POST', `/working-time/users/${userId}/schedules`, {
      effective_from: effectiveFrom,
      entries,
    });
    expect({ status: created.statusCode, body: created.body }).toMatchObject({ status: 201 });
    return created.json<Schedule>();
  };
  it('keeps a history: each day reads the week in force, the first one before it', async () => {
    const userId = await person();
    const first = await schedule(userId, '2020-01-06', fullTime);
    await schedule(userId, '2020-03-02', partTime);

    expect(first).toMatchObject({ effective_from: '2020-01-06', version: 1 });
    expect(first.entries[0]).toEqual({
      daily_hours: 8,
      day_of_week: 1,
      start_at: '09:00:00',
      end_at: '17:00:00',
      user_id: userId,
      break_time: 0,
    });
    expect(daysOf(await schedules(userId))).toEqual([
      ['2020-01-06', [8, 8, 8, 8, 8]],
      ['2020-03-02', [4, 4, 4]],
    ]);
    for (const [at, from] of [
      ['2019-06-01', '2020-01-06'],
      ['2020-01-06', '2020-01-06'],
      ['2020-03-01', '2020-01-06'],
      ['2020-03-02', '2020-03-02'],
      ['2031-01-01', '2020-03-02'],
    ]) {
      const answer = await schedules(userId, `?at=${at}`);
      expect({ at, from: answer.json<Schedule[]>().map((each) => each.effective_from) }).toEqual({
        at,
        from: [from],
      });
    }
    // The interface's week is the one in force today.
    const week = await app.call('GET', `/working-time/users/${userId}`);
    expect(week.json<Entry[]>().map((entry) => entry.daily_hours)).toEqual([4, 4, 4]);
    expect((await app.call('GET', `/working-time/company/with/users?user_ids=${userId}`)).json()).toEqual({
      [String(userId)]: week.json(),
    });
  });

  it("the interface's PUT writes the week from today on: past days keep theirs, later schedules stay", async () => {
    const userId = await person();
    await schedule(userId, '2020-01-06', fullTime);
    await schedule(userId, '2099-01-05', weekOf(6));

    const put = await app.call('PUT', `/working-time/users/${userId}`, { entries: partTime });
    const again = await app.call('PUT', `/working-time/users/${userId}`, { entries: weekOf(5, [2, 4]) });

    expect(put.statusCode).toBe(200);
    expect(again.json<Entry[]>().map((entry) => [entry.day_of_week, entry.daily_hours])).toEqual([
      [2, 5],
      [4, 5],
    ]);
    expect(daysOf(await schedules(userId))).toEqual([
      ['2020-01-06', [8, 8, 8, 8, 8]],
      [day(0), [5, 5]],
      ['2099-01-05', [6, 6, 6, 6, 6]],
    ]);
    expect(daysOf(await schedules(userId, `?at=${day(-1)}`))).toEqual([['2020-01-06', [8, 8, 8, 8, 8]]]);
    expect(daysOf(await schedules(userId, `?at=${day(0)}`))).toEqual([[day(0), [5, 5]]]);
    expect((await app.call('GET', `/working-time/users/${userId}`)).json()).toEqual(again.json());
    // Written twice today: one schedule, its version moved on.
    const today = (await schedules(userId)).json<Schedule[]>()[1];
    expect(today.version).toBeGreaterThan(1);
  });

  it('starts a first week with the interface’s PUT, and an empty week empties today only', async () => {
    const userId = await person();
    expect((await app.call('GET', `/working-time/users/${userId}`)).json()).toEqual([]);
    expect((await schedules(userId)).json()).toEqual([]);
    expect((await schedules(userId, '?at=2027-01-01')).statusCode).toBe(404);

    await app.call('PUT', `/working-time/users/${userId}`, { entries: fullTime });
    await schedule(userId, '2020-01-06', partTime);
    const emptied = await app.call('PUT', `/working-time/users/${userId}`, { entries: [] });

    expect(emptied.json()).toEqual([]);
    expect(
      Object.keys(
        (await app.call('GET', `/working-time/company/with/users?user_ids=${userId}`)).json<object>(),
      ),
    ).toEqual([]);
    expect(daysOf(await schedules(userId))).toEqual([
      ['2020-01-06', [4, 4, 4]],
      [day(0), []],
    ]);
  });

  it('replaces and removes a schedule by its first day, with If-Match on its version', async () => {
    const userId = await person();
    await schedule(userId, '2021-01-04', fullTime);
    await schedule(userId, '2021-06-07', partTime);
    const path = `/working-time/users/${userId}/schedules/2021-06-07`;

    const read = await app.call('GET', path);
    const etag = read.headers.etag as string;
    const replaced = await app.call('PUT', path, { entries: weekOf(6) }, { headers: { 'if-match': etag } });
    const stale = await app.call('PUT', path, { entries: weekOf(7) }, { headers: { 'if-match': etag } });

    expect(read.statusCode).toBe(200);
    expect(etag).toMatch(/^"1-/);
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json<Schedule>()).toMatchObject({ effective_from: '2021-06-07', version: 2 });
    expect(replaced.json<Schedule>().entries.map((entry) => entry.daily_hours)).toEqual([6, 6, 6, 6, 6]);
    expect(stale.statusCode).toBe(412);
    expect(stale.json<{ current: Schedule }>().current).toEqual(replaced.json());
    expect(
      (await app.call('PUT', `/working-time/users/${userId}/schedules/2021-06-08`, { entries: [] }))
        .statusCode,
    ).toBe(404);

    expect((await app.call('DELETE', path, undefined, { headers: { 'if-match': etag } })).statusCode).toBe(
      412,
    );
    expect((await app.call('DELETE', path, undefined, { headers: { 'if-match': '"2"' } })).statusCode).toBe(
      204,
    );
    expect((await app.call('GET', path)).statusCode).toBe(404);
    expect(daysOf(await schedules(userId, '?at=2022-01-01'))).toEqual([['2021-01-04', [8, 8, 8, 8, 8]]]);
  });

  it('refuses a second schedule on a day with a named 422', async () => {
    const userId = await person();
    await schedule(userId, '2027-05-03', fullTime);

    const twice = await app.call('POST', `/working-time/users/${userId}/schedules`, {
      effective_from: '2027-05-03',
      entries: partTime,
    });

    expect(twice.statusCode).toBe(422);
    expect(twice.json()).toMatchObject({
      code: 'AC004',
      message: expect.stringContaining('already has a working schedule from that date') as unknown,
    });
    expect(daysOf(await schedules(userId))).toEqual([['2027-05-03', [8, 8, 8, 8, 8]]]);
  });

  it.each([
    ['a day that does not exist', { effective_from: '2027-02-30', entries: fullTime }, 'effective_from'],
    ['a malformed day', { effective_from: '2027-3-1', entries: fullTime }, 'effective_from'],
    ['no first day', { entries: fullTime }, 'effective_from'],
    ['a day twice', { effective_from: '2027-03-01', entries: [fullTime[0], fullTime[0]] }, 'entries'],
    [
      'a start after the end',
      {
        effective_from: '2027-03-01',
        entries: [{ ...fullTime[0], start_at: '18:00:00', end_at: '09:00:00' }],
      },
      'entries.0.start_at',
    ],
    [
      'no such weekday',
      { effective_from: '2027-03-01', entries: [{ ...fullTime[0], day_of_week: 7 }] },
      'entries.0.day_of_week',
    ],
  ])('refuses %s with a 400 naming the field', async (_case, body, field) => {
    const userId = await person();

    const answer = await app.call('POST', `/working-time/users/${userId}/schedules`, body);

    expect(answer.statusCode).toBe(400);
    expect(fieldsOf(answer)).toContain(field);
    expect((await schedules(userId)).json()).toEqual([]);
  });

  it('refuses a malformed day in the query or the path with a 400 naming it', async () => {
    const userId = await person();

    const at = await schedules(userId, '?at=2027-13-01');
    const path = await app.call('GET', `/working-time/users/${userId}/schedules/tomorrow`);

    expect(at.statusCode).toBe(400);
    expect(fieldsOf(at)).toEqual(['at']);
    expect(path.statusCode).toBe(400);
    expect(fieldsOf(path)).toEqual(['effective_from']);
  });

  it("keeps companies apart and lets only roles 1-2 write, and feeds the change as the user's working time", async () => {
    const userId = await person();
    type FeedPage = {
      data: { entity: string; id: number; kind: string; changed_fields: string[] }[];
      next_cursor: string;
    };
    const feed = async (after: string) =>
      (await app.call('GET', `/events?after=${after}&limit=1000`)).json<FeedPage>();
    let page = await feed('0');
    let cursor = page.next_cursor;
    while (page.data.length > 0) {
      page = await feed(cursor);
      cursor = page.next_cursor;
    }

    await schedule(userId, '2027-09-06', []);

    expect((await feed(cursor)).data).toEqual([
      expect.objectContaining({
        entity: 'working-time',
        id: userId,
        kind: 'updated',
        changed_fields: ['entries'],
      }),
    ]);
    expect((await schedules(foreigner)).statusCode).toBe(404);
    expect((await schedules(foreigner, '?at=2027-01-01')).statusCode).toBe(404);
    expect(
      (
        await app.call('POST', `/working-time/users/${foreigner}/schedules`, {
          effective_from: '2027-01-04',
          entries: fullTime,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await app.call('GET', `/working-time/users/${userId}/schedules`, undefined, { company: companyB }))
        .statusCode,
    ).toBe(404);
    for (const role of [3, 4]) {
      const answer = await app.call(
        'POST',
        `/working-time/users/${userId}/schedules`,
        { effective_from: '2027-10-04', entries: fullTime },
        { role },
      );
      expect({ role, status: answer.statusCode }).toEqual({ role, status: 403 });
    }
    expect(
      (await app.call('GET', `/working-time/users/${userId}/schedules`, undefined, { role: 4 })).statusCode,
    ).toBe(200);
  });

  it("answers the planner's look-up each person's schedules over a period that spans a change", async () => {
    const userId = await person();
    const other = await person();
    await schedule(userId, '2027-01-04', fullTime);
    await schedule(userId, '2027-03-01', partTime);
    await schedule(userId, '2027-06-07', weekOf(6));
    await app.call('PUT', `/working-time/users/${other}`, { entries: partTime });

    const spanning = await app.call(
      'GET',
      `/planner/lookups?user_ids=${userId},${other}&from=2027-02-01&to=2027-04-30`,
    );
    const before = await app.call('GET', `/planner/lookups?user_ids=${userId}&from=2026-01-01&to=2026-01-31`);
    const all = await app.call('GET', `/planner/lookups?user_ids=${userId},${other}`);
    const interfaceWeeks = await app.call(
      'GET',
      `/working-time/company/with/users?user_ids=${userId},${other}`,
    );

    expect(spanning.statusCode).toBe(200);
    const body = spanning.json<{ schedules: Record<string, Schedule[]>; working_time: object }>();
    expect(body.schedules[String(userId)]).toEqual([
      { effective_from: '2027-01-04', entries: expect.any(Array) as unknown },
      { effective_from: '2027-03-01', entries: expect.any(Array) as unknown },
    ]);
    expect(body.schedules[String(userId)][1].entries).toEqual(
      (await schedules(userId, '?at=2027-03-01')).json<Schedule[]>()[0].entries,
    );
    // The other person's one schedule starts today: before it, it holds too.
    expect(Object.keys(body.schedules)).toEqual([String(userId), String(other)].sort());
    expect(body.schedules[String(other)].map((each) => each.effective_from)).toEqual([day(0)]);
    expect(
      before
        .json<{ schedules: Record<string, Schedule[]> }>()
        .schedules[String(userId)].map((each) => each.effective_from),
    ).toEqual(['2027-01-04']);
    expect(
      all
        .json<{ schedules: Record<string, Schedule[]> }>()
        .schedules[String(userId)].map((each) => each.effective_from),
    ).toEqual(['2027-01-04', '2027-03-01', '2027-06-07']);
    // working_time stays the week in force today, as the interface's route answers it.
    expect(body.working_time).toEqual(interfaceWeeks.json());
    expect(all.json<{ working_time: object }>().working_time).toEqual(interfaceWeeks.json());
    expect(Object.keys(interfaceWeeks.json<object>()).sort()).toEqual([String(userId), String(other)].sort());
  });
});

/** The migration: each person's one week becomes one schedule from the day they were created. */
describe('main-api working schedules migration (e2e)', () => {
  let app: MainApiTestApp;

  beforeAll(async () => {
    app = await startMainApiTestApp(['SM']);
  });

  afterAll(() => app.close());

  it('moves each week into a schedule from the person’s first day (UTC), and back', async () => {
    const userId = (
      await app.call('POST', '/users', {
        first_name: 'Long',
        last_name: 'Standing',
        email: 'long@migration.test',
        role_id: 4,
      })
    ).json<{ id: number }>().id;
    await app.call('POST', `/working-time/users/${userId}/schedules`, {
      effective_from: '2020-01-06',
      entries: fullTime,
    });
    await app.call('PUT', `/working-time/users/${userId}`, { entries: partTime });
    const [{ created }] = await app.dataSource.query<{ created: string }[]>(
      `SELECT (created_at AT TIME ZONE 'UTC')::date::text AS created FROM users WHERE id = $1`,
      [userId],
    );
    const migration = new WorkingSchedules1796000001900();

    const runner = app.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      await migration.down(runner);
      const week = (await runner.query(
        'SELECT day_of_week, daily_hours FROM working_time_entries WHERE user_id = $1 ORDER BY day_of_week',
        [userId],
      )) as { day_of_week: number; daily_hours: string }[];
      await migration.up(runner);
      await runner.commitTransaction();

      // Down kept the week in force today; up gave it a schedule from the person's first day.
      expect(week.map((entry) => [entry.day_of_week, Number(entry.daily_hours)])).toEqual([
        [1, 4],
        [2, 4],
        [3, 4],
      ]);
    } finally {
      if (runner.isTransactionActive) {
        await runner.rollbackTransaction();
      }
      await runner.release();
    }
    expect(daysOf(await app.call('GET', `/working-time/users/${userId}/schedules`))).toEqual([
      [created, [4, 4, 4]],
    ]);
    expect(
      (await app.call('GET', `/working-time/users/${userId}`))
        .json<Entry[]>()
        .map((entry) => entry.day_of_week),
    ).toEqual([1, 2, 3]);
  });
});
