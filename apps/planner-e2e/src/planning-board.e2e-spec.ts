import type { DataSource } from 'typeorm';
import { startBoard, type Body, type Board } from './support/board-harness';

interface Allocation {
  id: string;
  user_id: number;
  project_id: number;
  from: string;
  to: string;
  status: string;
  mode: string;
  total_hours: number;
  version: number;
  confirmed_by_user_id: number | null;
  confirmed_at: string | null;
  assigned_by_user_id: number;
  task_id: number | null;
  days?: { date: string; hours: number; pinned: boolean }[];
  over_allocated_days?: { date: string; capacity: number; booked: number; over: number }[];
}

/**
 * What a planning board does with the v2 allocations (issue 37): book, read the ETag, move with
 * If-Match, confirm, split, read by person across projects and by window, and be refused over
 * capacity; and many planners booking at once never overbook a person under `reject`.
 */
describe('planner v2: a planning board over the allocation ledger (e2e)', () => {
  let board: Board;
  let plannerDb: DataSource;

  const book = (body: Body) => board.call('POST', '/v2/allocations', body);
  const booked = async (body: Body): Promise<{ allocation: Allocation; etag: string }> => {
    const answer = await book(body);
    expect({ status: answer.statusCode, body: answer.json<Body>() }).toMatchObject({ status: 201 });
    return { allocation: answer.json<Allocation>(), etag: answer.headers.etag as string };
  };

  beforeAll(async () => {
    board = await startBoard(['Acme']);
    plannerDb = await board.plannerDb();
  });

  afterAll(async () => {
    await board?.close();
  });

  it('books by hours per day and answers 201 with its days, Location and ETag', async () => {
    const person = await board.newPerson();
    const project = await board.newProject('Board: per day');
    // 2027-01-04 is a Monday: five working days and a weekend.
    const answer = await book({
      user_id: person,
      project_id: project,
      from: '2027-01-04',
      to: '2027-01-10',
      hours_per_day: 6,
    });

    expect(answer.statusCode).toBe(201);
    const allocation = answer.json<Allocation>();
    expect(answer.headers.location).toBe(`/v2/allocations/${allocation.id}`);
    expect(answer.headers.etag).toMatch(new RegExp(`^"${allocation.version}-`));
    expect(allocation).toMatchObject({
      status: 'confirmed',
      mode: 'hours_per_day',
      total_hours: 30,
      over_allocated_days: [],
    });
    expect(allocation.days?.map((day) => day.hours)).toEqual([6, 6, 6, 6, 6, 0, 0]);
    expect(allocation.confirmed_by_user_id).toBe(board.bossId);

    const read = await board.call('GET', `/v2/allocations/${allocation.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.headers.etag).toMatch(new RegExp(`^"${allocation.version}-`));
    expect(
      (
        await board.call('GET', `/v2/allocations/${allocation.id}`, undefined, {
          'if-none-match': read.headers.etag as string,
        })
      ).statusCode,
    ).toBe(304);
  });

  it('spreads total hours by capacity so the days sum exactly to it, and keeps pinned days', async () => {
    const person = await board.newPerson();
    const { allocation } = await booked({
      user_id: await board.newPerson(),
      project_id: await board.newProject('Board: total'),
      from: '2027-01-04',
      to: '2027-01-08',
      total_hours: 10,
      days: [{ date: '2027-01-04', hours: 4 }],
    });
    expect(allocation.days?.map((day) => [day.hours, day.pinned])).toEqual([
      [4, true],
      [1.5, false],
      [1.5, false],
      [1.5, false],
      [1.5, false],
    ]);
    expect(allocation.total_hours).toBe(10);
    expect(person).toBeGreaterThan(0);
  });

  it('moves with If-Match, refuses a write without it (428) or with a stale one (412 with current)', async () => {
    const person = await board.newPerson();
    const { allocation, etag } = await booked({
      user_id: person,
      project_id: await board.newProject('Board: move'),
      from: '2027-02-01',
      to: '2027-02-05',
      hours_per_day: 4,
      status: 'tentative',
    });
    expect(allocation.confirmed_by_user_id).toBeNull();

    const unconditional = await board.call('PATCH', `/v2/allocations/${allocation.id}`, {
      from: '2027-02-08',
      to: '2027-02-12',
    });
    expect(unconditional.statusCode).toBe(428);
    expect(unconditional.json<Body>().error).toBe('PreconditionRequiredError');

    const moved = await board.call(
      'PATCH',
      `/v2/allocations/${allocation.id}`,
      { from: '2027-02-08', to: '2027-02-12', status: 'confirmed' },
      { 'if-match': etag },
    );
    expect(moved.statusCode).toBe(200);
    expect(moved.json<Allocation>()).toMatchObject({
      from: '2027-02-08',
      to: '2027-02-12',
      status: 'confirmed',
      total_hours: 20,
      confirmed_by_user_id: board.bossId,
    });
    expect(moved.json<Allocation>().version).toBeGreaterThan(allocation.version);
    expect(moved.headers.etag).not.toBe(etag);

    const stale = await board.call(
      'PATCH',
      `/v2/allocations/${allocation.id}`,
      { hours_per_day: 2 },
      { 'if-match': etag },
    );
    expect(stale.statusCode).toBe(412);
    expect(stale.json<{ error: string; current: Allocation }>()).toMatchObject({
      error: 'PreconditionFailedError',
      current: { id: allocation.id, from: '2027-02-08' },
    });
  });

  it('splits an allocation in two, each keeping the hours it had', async () => {
    const { allocation, etag } = await booked({
      user_id: await board.newPerson(),
      project_id: await board.newProject('Board: split'),
      from: '2027-03-01',
      to: '2027-03-12',
      hours_per_day: 5,
    });
    const split = await board.call(
      'POST',
      `/v2/allocations/${allocation.id}/split`,
      { date: '2027-03-08' },
      { 'if-match': etag },
    );

    expect(split.statusCode).toBe(200);
    const { first, second } = split.json<{ first: Allocation; second: Allocation }>();
    expect([first.id, first.from, first.to, first.total_hours]).toEqual([
      allocation.id,
      '2027-03-01',
      '2027-03-07',
      25,
    ]);
    expect([second.from, second.to, second.total_hours]).toEqual(['2027-03-08', '2027-03-12', 25]);
    expect(second.id).not.toBe(allocation.id);
  });

  it('reads by person across projects and by window, a cursor page at a time, with days', async () => {
    const person = await board.newPerson();
    const [one, two] = [await board.newProject('Board: list 1'), await board.newProject('Board: list 2')];
    await booked({
      user_id: person,
      project_id: one,
      from: '2027-04-05',
      to: '2027-04-09',
      hours_per_day: 2,
    });
    await booked({
      user_id: person,
      project_id: two,
      from: '2027-04-07',
      to: '2027-04-16',
      hours_per_day: 3,
    });
    await booked({
      user_id: person,
      project_id: one,
      from: '2027-05-03',
      to: '2027-05-07',
      hours_per_day: 2,
    });

    const first = await board.call(
      'GET',
      `/v2/allocations?user_ids=${person}&from=2027-04-01&to=2027-04-30&include=days&limit=1`,
    );
    expect(first.statusCode).toBe(200);
    const page = first.json<{ data: Allocation[]; next_cursor: string; has_more: boolean }>();
    expect(page.data.map((allocation) => allocation.project_id)).toEqual([one]);
    expect(page.has_more).toBe(true);
    expect(page.data[0]?.days).toHaveLength(5);
    const rest = await board.call(
      'GET',
      `/v2/allocations?user_ids=${person}&from=2027-04-01&to=2027-04-30&cursor=${page.next_cursor}`,
    );
    expect(rest.json<{ data: Allocation[]; has_more: boolean }>()).toMatchObject({
      data: [{ project_id: two }],
      has_more: false,
    });
    expect(rest.json<{ data: Allocation[] }>().data[0]?.days).toBeUndefined();
    // A day that does not exist is the planner's 400, not the database's error.
    const impossible = await board.call('GET', `/v2/allocations?user_ids=${person}&from=2027-02-30`);
    expect(impossible.statusCode).toBe(400);
    expect(impossible.json<Body>().error).toBe('InvalidAllocationError');
  });

  it('refuses over capacity under reject, naming the days, and books it under warn', async () => {
    const person = await board.newPerson();
    const [one, two] = [await board.newProject('Board: cap 1'), await board.newProject('Board: cap 2')];
    await booked({
      user_id: person,
      project_id: one,
      from: '2027-06-07',
      to: '2027-06-11',
      hours_per_day: 6,
    });

    const refused = await book({
      user_id: person,
      project_id: two,
      from: '2027-06-10',
      to: '2027-06-14',
      hours_per_day: 4,
      capacity_policy: 'reject',
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json<Body>()).toMatchObject({
      error: 'OverCapacityError',
      over_allocated_days: [
        { date: '2027-06-10', capacity: 8, booked: 10, over: 2 },
        { date: '2027-06-11', capacity: 8, booked: 10, over: 2 },
      ],
    });
    const [{ count }] = await plannerDb.query<{ count: number }[]>(
      'SELECT count(*)::int AS count FROM planner.allocations WHERE user_id = $1',
      [person],
    );
    expect(count).toBe(1);

    // Tentative work does not count unless the company says so: booked, nothing over.
    const tentative = await book({
      user_id: person,
      project_id: two,
      from: '2027-06-10',
      to: '2027-06-14',
      hours_per_day: 4,
      status: 'tentative',
      capacity_policy: 'reject',
    });
    expect(tentative.statusCode).toBe(201);
    expect(tentative.json<Allocation>().over_allocated_days).toEqual([]);

    const warned = await book({
      user_id: person,
      project_id: await board.newProject('Board: cap 3'),
      from: '2027-06-07',
      to: '2027-06-07',
      hours_per_day: 3,
    });
    expect(warned.statusCode).toBe(201);
    expect(warned.json<Allocation>().over_allocated_days).toEqual([
      { date: '2027-06-07', capacity: 8, booked: 9, over: 1 },
    ]);

    // The warning is in the planner's feed, once, for the day and the write that put it over; the
    // refused write left none.
    const warnings = (await board.feed()).filter(
      (event) => event.entity === 'availability' && event.user_id === person,
    );
    expect(warnings).toEqual([
      expect.objectContaining({
        entity: 'availability',
        kind: 'over_allocated',
        id: warned.json<Allocation>().id,
        user_id: person,
        data: { user_id: person, date: '2027-06-07', capacity: 8, booked: 9 },
      }),
    ]);
  });

  it('never leaves a day over capacity under reject, however many planners book at once', async () => {
    const people = [await board.newPerson(), await board.newPerson(), await board.newPerson()];
    const projects = await Promise.all(
      Array.from({ length: 12 }, (_, index) => board.newProject(`Board: race ${index}`)),
    );
    // A fixed pseudo-random sequence: the same bookings on every run, overlapping on purpose.
    let seed = 37;
    const next = (bound: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % bound;
    };
    const bookings = projects.flatMap((project) =>
      Array.from({ length: 2 }, (_, index) => {
        const start = 1 + next(8);
        return {
          user_id: people[next(people.length)],
          project_id: project,
          // Two bookings per project in separate halves of July, so they never overlap on one project.
          from: `2027-07-${String(start + index * 14).padStart(2, '0')}`,
          to: `2027-07-${String(start + index * 14 + 2 + next(4)).padStart(2, '0')}`,
          hours_per_day: 1 + next(6),
          capacity_policy: 'reject',
        };
      }),
    );

    const answers = await Promise.all(bookings.map((body) => book(body)));
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.every((status) => status === 201 || status === 422)).toBe(true);
    // Not vacuous: some got in, some were refused.
    expect(statuses.filter((status) => status === 201).length).toBeGreaterThan(0);
    expect(statuses.filter((status) => status === 422).length).toBeGreaterThan(0);

    const overbooked = await plannerDb.query<{ user_id: number; day: string; hours: number }[]>(
      `SELECT user_id, day::text AS day, sum(hours)::float8 AS hours FROM planner.allocation_days
        WHERE user_id = ANY($1) AND status = 'confirmed' GROUP BY user_id, day HAVING sum(hours) > 8`,
      [people],
    );
    expect(overbooked).toEqual([]);
    // And every 201's days are there.
    const [{ count }] = await plannerDb.query<{ count: number }[]>(
      'SELECT count(DISTINCT allocation_id)::int AS count FROM planner.allocation_days WHERE user_id = ANY($1)',
      [people],
    );
    expect(count).toBe(statuses.filter((status) => status === 201).length);
  });

  it('removes with If-Match, and its days go with it', async () => {
    const { allocation, etag } = await booked({
      user_id: await board.newPerson(),
      project_id: await board.newProject('Board: remove'),
      from: '2027-08-02',
      to: '2027-08-06',
      hours_per_day: 1,
    });
    expect((await board.call('DELETE', `/v2/allocations/${allocation.id}`)).statusCode).toBe(428);
    expect(
      (await board.call('DELETE', `/v2/allocations/${allocation.id}`, undefined, { 'if-match': etag }))
        .statusCode,
    ).toBe(204);
    expect((await board.call('GET', `/v2/allocations/${allocation.id}`)).statusCode).toBe(404);
    const [{ count }] = await plannerDb.query<{ count: number }[]>(
      'SELECT count(*)::int AS count FROM planner.allocation_days WHERE allocation_id = $1',
      [allocation.id],
    );
    expect(count).toBe(0);
  });

  it("plans again, from the interface's total, an allocation the interface changed", async () => {
    const person = await board.newPerson();
    const project = await board.newProject('Board: facade');
    const { allocation } = await booked({
      user_id: person,
      project_id: project,
      from: '2027-10-04',
      to: '2027-10-08',
      hours_per_day: 2,
    });
    const identity = {
      userId: person,
      companyId: board.companyId,
      resource: { typeId: 'Project', entityId: project },
      from: '2027-10-04',
      to: '2027-10-08',
      assignedByUserId: board.bossId,
    };
    const changed = await board.call('PUT', '/allocation/updateAllocation', {
      oldAllocation: { ...identity, allocatedHours: 10 },
      newAllocation: { ...identity, allocatedHours: 20 },
    });
    expect(changed.statusCode).toBe(200);
    // The next booking of the person plans it: 20 hours over its five days, 4 a day.
    await booked({
      user_id: person,
      project_id: await board.newProject('Board: facade 2'),
      from: '2027-10-04',
      to: '2027-10-04',
      hours_per_day: 1,
    });
    const read = await board.call('GET', `/v2/allocations/${allocation.id}`);
    expect(read.json<Allocation>()).toMatchObject({ mode: 'total_hours', total_hours: 20 });
    expect(read.json<Allocation>().days?.map((day) => day.hours)).toEqual([4, 4, 4, 4, 4]);
  });

  it('plans on its first v2 read an allocation booked through the interface, and splits it keeping its hours', async () => {
    const person = await board.newPerson();
    const project = await board.newProject('Board: booked by the interface');
    const saved = await board.call('POST', '/allocation/saveAllocation', {
      userId: person,
      companyId: board.companyId,
      resource: { typeId: 'Project', entityId: project },
      from: '2027-11-01',
      to: '2027-11-03',
      assignedByUserId: board.bossId,
      allocatedHours: 12,
    });
    expect(saved.statusCode).toBe(200);

    // No v2 write of the person since: the read plans it, 12 hours over three 8-hour days.
    const page = await board.call('GET', `/v2/allocations?user_ids=${person}&include=days`);
    expect(page.statusCode).toBe(200);
    const [listed] = page.json<{ data: Allocation[] }>().data;
    expect(listed).toMatchObject({ mode: 'total_hours', total_hours: 12, status: 'confirmed' });
    expect(listed?.days?.map((day) => [day.date, day.hours])).toEqual([
      ['2027-11-01', 4],
      ['2027-11-02', 4],
      ['2027-11-03', 4],
    ]);
    // Planned once, in the ledger: the next read answers the same rows.
    const [{ count }] = await plannerDb.query<{ count: number }[]>(
      'SELECT count(*)::int AS count FROM planner.allocation_days WHERE allocation_id = $1',
      [listed?.id],
    );
    expect(count).toBe(3);

    const read = await board.call('GET', `/v2/allocations/${listed?.id}`);
    const split = await board.call(
      'POST',
      `/v2/allocations/${listed?.id}/split`,
      { date: '2027-11-02' },
      {
        'if-match': read.headers.etag as string,
      },
    );
    expect(split.statusCode).toBe(200);
    expect(split.json<{ first: Allocation; second: Allocation }>()).toMatchObject({
      first: { from: '2027-11-01', to: '2027-11-01', total_hours: 4 },
      second: { from: '2027-11-02', to: '2027-11-03', total_hours: 8 },
    });
  });

  it('plans hours per day and percent of capacity again when the schedule changes, with a new version', async () => {
    const person = await board.newPerson();
    const { allocation: percent, etag } = await booked({
      user_id: person,
      project_id: await board.newProject('Board: percent'),
      from: '2027-12-06',
      to: '2027-12-10',
      percent_of_capacity: 50,
    });
    expect(percent.days?.map((day) => day.hours)).toEqual([4, 4, 4, 4, 4]);
    const { allocation: perDay } = await booked({
      user_id: person,
      project_id: await board.newProject('Board: per day'),
      from: '2027-12-06',
      to: '2027-12-10',
      hours_per_day: 2,
    });

    // Part-time from now on: six hours Monday to Thursday.
    const partTime = [1, 2, 3, 4].map((day) => ({
      day_of_week: day,
      daily_hours: 6,
      start_at: '09:00:00',
      end_at: '15:00:00',
    }));
    expect(
      (await board.main.call('PUT', `/working-time/users/${person}`, { entries: partTime })).statusCode,
    ).toBe(200);

    // A write weighs them as the new schedule plans them: Thursday is 3 + 2 of 6 hours, so one more fits.
    const oneMore = await book({
      user_id: person,
      project_id: await board.newProject('Board: one more hour'),
      from: '2027-12-09',
      to: '2027-12-09',
      hours_per_day: 1,
      capacity_policy: 'reject',
    });
    expect({ status: oneMore.statusCode, body: oneMore.json<Body>() }).toMatchObject({
      status: 201,
      body: { over_allocated_days: [] },
    });

    // The same read with the old ETag is no 304: the days, the total and the version changed.
    const read = await board.call('GET', `/v2/allocations/${percent.id}`, undefined, {
      'if-none-match': etag,
    });
    expect(read.statusCode).toBe(200);
    expect(read.json<Allocation>()).toMatchObject({ total_hours: 12, version: percent.version + 1 });
    expect(read.json<Allocation>().days?.map((day) => day.hours)).toEqual([3, 3, 3, 3, 0]);
    // A list follows it too, days or not, and a repeated read changes nothing more.
    const listed = await board.call('GET', `/v2/allocations?user_ids=${person}`);
    expect(
      listed.json<{ data: Allocation[] }>().data.map((row) => [row.id, row.total_hours, row.version]),
    ).toEqual(
      expect.arrayContaining([
        [percent.id, 12, percent.version + 1],
        [perDay.id, 8, perDay.version + 1],
      ]),
    );
    const [{ events }] = await plannerDb.query<{ events: number }[]>(
      `SELECT count(*)::int AS events FROM planner.change_events
        WHERE entity_id = ANY($1::uuid[]) AND kind = 'updated' AND 'allocated_hours' = ANY(changed_fields)`,
      [[percent.id, perDay.id]],
    );
    expect(events).toBe(2);
  });

  it("checks the task against the project, and records who an API client's token says confirmed", async () => {
    const person = await board.newPerson();
    const [project, other] = [
      await board.newProject('Board: tasks'),
      await board.newProject('Board: no such task'),
    ];
    const task = await board.created(
      board.main.call('POST', '/tasks', { project_id: project, name: 'Key visual' }),
    );
    const week = { user_id: person, from: '2028-01-03', to: '2028-01-07', hours_per_day: 1, task_id: task };

    const elsewhere = await book({ ...week, project_id: other });
    expect({ status: elsewhere.statusCode, body: elsewhere.json<Body>() }).toMatchObject({
      status: 400,
      body: { error: 'InvalidAllocationError', message: expect.stringContaining('task_id') },
    });
    const unknown = await book({ ...week, project_id: project, task_id: 999_999 });
    expect(unknown.statusCode).toBe(400);

    // An API client books tentatively, then confirms: it must say who confirmed, and that is recorded.
    const issued = await board.main.service.app.inject({
      method: 'POST',
      url: '/v1/oauth/token?grant_type=client_credentials',
      headers: {
        authorization: `Basic ${Buffer.from(`${board.main.companies[0].apiKey}:${board.main.companies[0].clientSecret}`).toString('base64')}`,
      },
    });
    const asClient = { authorization: `Bearer ${issued.json<{ access_token: string }>().access_token}` };
    const tentative = await board.call(
      'POST',
      '/v2/allocations',
      { ...week, project_id: project, status: 'tentative', assigned_by_user_id: board.bossId },
      asClient,
    );
    expect(tentative.json<Allocation>()).toMatchObject({ task_id: task, status: 'tentative' });
    const confirm = (body: Body, etag: string) =>
      board.call('PATCH', `/v2/allocations/${tentative.json<Allocation>().id}`, body, {
        ...asClient,
        'if-match': etag,
      });
    const nameless = await confirm({ status: 'confirmed' }, tentative.headers.etag as string);
    expect({ status: nameless.statusCode, body: nameless.json<Body>() }).toMatchObject({
      status: 400,
      body: { message: expect.stringContaining('who confirmed') },
    });
    const person2 = await board.newPerson();
    const confirmed = await confirm(
      { status: 'confirmed', assigned_by_user_id: person2 },
      tentative.headers.etag as string,
    );
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json<Allocation>()).toMatchObject({
      status: 'confirmed',
      confirmed_by_user_id: person2,
      assigned_by_user_id: board.bossId,
    });
  });

  it("plans around the person's holidays, and reads partial leaves in their time zone", async () => {
    const person = await board.newPerson();
    const calendar = await board.created(
      board.main.call('POST', '/holiday-calendars', { name: 'Board: Paris' }),
    );
    expect(
      (
        await board.main.call('POST', `/holiday-calendars/${calendar}/holidays`, {
          date: '2028-07-14',
          name: 'Bastille Day',
        })
      ).statusCode,
    ).toBe(201);
    expect(
      (
        await board.main.call('POST', `/users/${person}/holiday-calendars`, {
          calendar_id: calendar,
          effective_from: '2028-01-01',
        })
      ).statusCode,
    ).toBe(201);
    expect(
      (await board.main.call('PUT', `/users/${person}/time-zone`, { time_zone: 'Asia/Tokyo' })).statusCode,
    ).toBe(200);
    // 09:00-12:00 in Tokyo on Monday 10 July is 00:00-03:00 UTC: three hours off that Monday there.
    expect(
      (
        await board.main.call('POST', '/user/leaves', {
          userId: person,
          leaveTypeId: 1,
          start: '2028-07-10T00:00:00Z',
          end: '2028-07-10T03:00:00Z',
          allDay: false,
        })
      ).statusCode,
    ).toBe(201);

    // 29 hours over the week: Monday has 5, Friday is Bastille Day, so 5 + 8 + 8 + 8 + 0 = 29.
    const { allocation } = await booked({
      user_id: person,
      project_id: await board.newProject('Board: holidays'),
      from: '2028-07-10',
      to: '2028-07-14',
      total_hours: 29,
    });
    expect(allocation.days?.map((day) => day.hours)).toEqual([5, 8, 8, 8, 0]);
    // One more hour on Monday is over its 5 under reject.
    const refused = await book({
      user_id: person,
      project_id: await board.newProject('Board: holidays 2'),
      from: '2028-07-10',
      to: '2028-07-10',
      hours_per_day: 1,
      capacity_policy: 'reject',
    });
    expect(refused.json<Body>()).toMatchObject({
      error: 'OverCapacityError',
      over_allocated_days: [{ date: '2028-07-10', capacity: 5, booked: 6, over: 1 }],
    });
  });

  it("follows the company's capacity policy, set with If-Match, and counts tentative work when it says so", async () => {
    const read = await board.call('GET', '/v2/planning-settings');
    expect(read.json<Body>()).toEqual({ capacity_policy: 'warn', count_tentative: false, version: 1 });
    const etag = read.headers.etag as string;
    const body = { capacity_policy: 'reject', count_tentative: true };
    expect((await board.call('PUT', '/v2/planning-settings', body)).statusCode).toBe(428);
    expect((await board.call('PUT', '/v2/planning-settings', body, { 'if-match': '"7-x"' })).statusCode).toBe(
      412,
    );
    const set = await board.call('PUT', '/v2/planning-settings', body, { 'if-match': etag });
    expect(set.statusCode).toBe(200);
    expect(set.json<Body>()).toEqual({ ...body, version: 2 });
    expect(set.headers.etag).toMatch(/^"2-/);

    const person = await board.newPerson();
    await booked({
      user_id: person,
      project_id: await board.newProject('Policy 1'),
      from: '2027-09-06',
      to: '2027-09-10',
      hours_per_day: 6,
      status: 'tentative',
    });
    // Tentative work counts now, and the company rejects: 6 tentative + 4 is over 8.
    const refused = await book({
      user_id: person,
      project_id: await board.newProject('Policy 2'),
      from: '2027-09-06',
      to: '2027-09-06',
      hours_per_day: 4,
    });
    expect(refused.statusCode).toBe(422);
    // A write may still name its own policy.
    expect(
      (
        await book({
          user_id: person,
          project_id: await board.newProject('Policy 3'),
          from: '2027-09-06',
          to: '2027-09-06',
          hours_per_day: 4,
          capacity_policy: 'allow',
        })
      ).statusCode,
    ).toBe(201);

    const back = await board.call(
      'PUT',
      '/v2/planning-settings',
      { capacity_policy: 'warn', count_tentative: false },
      { 'if-match': set.headers.etag as string },
    );
    expect(back.statusCode).toBe(200);
  });
});
