import { startBoard, type Body, type Board } from './support/board-harness';

interface Day {
  date: string;
  hours: number;
  pinned: boolean;
}

interface Allocation {
  id: string;
  user_id: number | null;
  placeholder_id: string | null;
  project_id: number;
  from: string;
  to: string;
  mode: string;
  total_hours: number;
  version: number;
  days?: Day[];
}

interface FillAnswer {
  moved: string[];
  created: string[];
  allocations: Allocation[];
  over_allocated_days: { date: string; capacity: number; booked: number; over: number }[];
}

const sumOf = (allocations: readonly { total_hours: number }[]) =>
  Math.round(allocations.reduce((sum, allocation) => sum + allocation.total_hours * 100, 0)) / 100;
const weekdays = (days: readonly Day[] | undefined) =>
  (days ?? []).filter((day) => day.hours > 0).map((day) => [day.date, day.hours]);

/**
 * Filling a placeholder (issue 39): `POST /v2/placeholders/{id}/assign` moves its bookings, or the
 * part inside a window, to a person in one transaction, under the person's capacity policy and lock.
 */
describe('planner v2: filling a placeholder (e2e)', () => {
  let board: Board;

  const newPlaceholder = async (name: string): Promise<{ id: string; etag: string }> => {
    const answer = await board.call('POST', '/v2/placeholders', { name });
    expect({ status: answer.statusCode, body: answer.json<Body>() }).toMatchObject({ status: 201 });
    return { id: answer.json<{ id: string }>().id, etag: answer.headers.etag as string };
  };
  const booked = (body: Body) => board.ok<Allocation>(board.call('POST', '/v2/allocations', body), 201);
  const assign = (placeholder: { id: string; etag: string }, body: Body) =>
    board.call('POST', `/v2/placeholders/${placeholder.id}/assign`, body, { 'if-match': placeholder.etag });
  const filled = (placeholder: { id: string; etag: string }, body: Body) =>
    board.ok<FillAnswer>(assign(placeholder, body));
  const list = async (query: string) => {
    const url = `/v2/allocations?include=days&limit=500&${query}`;
    return (await board.ok<{ data: Allocation[] }>(board.call('GET', url))).data;
  };

  beforeAll(async () => {
    board = await startBoard(['Filled']);
  });

  afterAll(async () => {
    await board?.close();
  });

  it('moves every booking to the person, keeping ids and modes, with If-Match (428 without)', async () => {
    const [design, build] = [await board.newProject('Fill: design'), await board.newProject('Fill: build')];
    const person = await board.newPerson();
    const placeholder = await newPlaceholder('Designer to hire');
    // 2027-01-04 is a Monday.
    const perDay = await booked({
      placeholder_id: placeholder.id,
      project_id: design,
      from: '2027-01-04',
      to: '2027-01-08',
      hours_per_day: 4,
    });
    const total = await booked({
      placeholder_id: placeholder.id,
      project_id: build,
      from: '2027-01-11',
      to: '2027-01-17',
      total_hours: 20,
      days: [{ date: '2027-01-11', hours: 8 }],
    });

    board.expectError(
      await board.call('POST', `/v2/placeholders/${placeholder.id}/assign`, { user_id: person }),
      428,
      'PreconditionRequiredError',
    );
    const answer = await filled(placeholder, { user_id: person });
    expect(answer.moved.sort()).toEqual([perDay.id, total.id].sort());
    expect(answer.created).toEqual([]);
    expect(answer.over_allocated_days).toEqual([]);
    const byId = new Map(answer.allocations.map((allocation) => [allocation.id, allocation]));
    expect(byId.get(perDay.id)).toMatchObject({
      user_id: person,
      placeholder_id: null,
      mode: 'hours_per_day',
      total_hours: 20,
    });
    expect(weekdays(byId.get(perDay.id)?.days)).toEqual(
      ['04', '05', '06', '07', '08'].map((day) => [`2027-01-${day}`, 4]),
    );
    // The total is the moved days' sum: the pinned Monday stays, the rest spread on the person's week.
    expect(byId.get(total.id)).toMatchObject({ user_id: person, mode: 'total_hours', total_hours: 20 });
    expect(byId.get(total.id)?.days?.find((day) => day.date === '2027-01-11')).toEqual({
      date: '2027-01-11',
      hours: 8,
      pinned: true,
    });
    expect(weekdays(byId.get(total.id)?.days)).toEqual([
      ['2027-01-11', 8],
      ['2027-01-12', 3],
      ['2027-01-13', 3],
      ['2027-01-14', 3],
      ['2027-01-15', 3],
    ]);
    expect(await list(`placeholder_ids=${placeholder.id}`)).toEqual([]);
    expect((await list(`user_ids=${person}`)).map((allocation) => allocation.id).sort()).toEqual(
      [perDay.id, total.id].sort(),
    );

    // Moved whole: an `updated` event each, naming the person now.
    const events = (await board.feed()).filter(
      (event) => event.entity === 'allocations' && [perDay.id, total.id].includes(event.id),
    );
    expect(events.filter((event) => event.kind === 'updated' && event.user_id === person)).toHaveLength(2);

    // Nothing left to move: 409, named.
    board.expectError(await assign(placeholder, { user_id: person }), 409, 'NothingToAssignError');
  });

  it('splits at the window: the placeholder keeps the outside part (its id and days), the person the rest', async () => {
    const project = await board.newProject('Fill: window');
    const person = await board.newPerson();
    const placeholder = await newPlaceholder('Developer to hire');
    const crossing = await booked({
      placeholder_id: placeholder.id,
      project_id: project,
      from: '2027-02-01',
      to: '2027-02-12',
      total_hours: 40,
    });
    const answer = await filled(placeholder, { user_id: person, from: '2027-02-08', to: '2027-02-19' });
    expect(answer.moved).toEqual([]);
    expect(answer.created).toHaveLength(1);
    const [mine] = answer.allocations;
    expect(mine).toMatchObject({
      id: answer.created[0],
      user_id: person,
      placeholder_id: null,
      from: '2027-02-08',
      to: '2027-02-12',
      mode: 'total_hours',
      total_hours: 20,
    });
    expect(weekdays(mine?.days)).toEqual(['08', '09', '10', '11', '12'].map((day) => [`2027-02-${day}`, 4]));
    const [kept] = await list(`placeholder_ids=${placeholder.id}`);
    expect(kept).toMatchObject({
      id: crossing.id,
      placeholder_id: placeholder.id,
      from: '2027-02-01',
      to: '2027-02-07',
      total_hours: 20,
    });
    expect(weekdays(kept?.days)).toEqual(['01', '02', '03', '04', '05'].map((day) => [`2027-02-${day}`, 4]));

    // A window inside one allocation: the placeholder keeps both sides (the later one new).
    const inner = await booked({
      placeholder_id: placeholder.id,
      project_id: project,
      from: '2027-03-01',
      to: '2027-03-19',
      hours_per_day: 6,
    });
    const middle = await filled(placeholder, { user_id: person, from: '2027-03-08', to: '2027-03-12' });
    expect(middle.created).toHaveLength(2);
    expect(middle.allocations).toHaveLength(1);
    expect(middle.allocations[0]).toMatchObject({ from: '2027-03-08', to: '2027-03-12', total_hours: 30 });
    const sides = await list(`placeholder_ids=${placeholder.id}&from=2027-03-01`);
    expect(
      sides.map((allocation) => [
        allocation.id === inner.id,
        allocation.from,
        allocation.to,
        allocation.total_hours,
      ]),
    ).toEqual([
      [true, '2027-03-01', '2027-03-07', 30],
      [false, '2027-03-13', '2027-03-19', 30],
    ]);
    expect(middle.created).toContain(sides[1]?.id);
  });

  it('refuses bad requests: unknown placeholder (404), person (400), half a window (400), empty window (409)', async () => {
    const project = await board.newProject('Fill: refusals');
    const person = await board.newPerson();
    const placeholder = await newPlaceholder('Writer to hire');
    await booked({
      placeholder_id: placeholder.id,
      project_id: project,
      from: '2027-04-05',
      to: '2027-04-09',
      hours_per_day: 2,
    });
    board.expectError(
      await assign(
        { id: '00000000-0000-4000-8000-000000000000', etag: placeholder.etag },
        { user_id: person },
      ),
      404,
      'PlaceholderNotFoundError',
    );
    board.expectError(await assign(placeholder, { user_id: 999999 }), 400, 'UserNotFoundError');
    board.expectError(
      await assign(placeholder, { user_id: person, from: '2027-04-05' }),
      400,
      'InvalidAllocationError',
    );
    board.expectError(
      await assign(placeholder, { user_id: person, from: '2027-04-09', to: '2027-04-05' }),
      400,
      'InvalidAllocationError',
    );
    board.expectError(
      await assign(placeholder, { user_id: person, from: '2027-05-01', to: '2027-05-31' }),
      409,
      'NothingToAssignError',
    );
  });

  it('under reject, answers 422 with the days over capacity and moves nothing', async () => {
    const [busy, pipeline] = [await board.newProject('Fill: busy'), await board.newProject('Fill: pipeline')];
    const person = await board.newPerson();
    const mine = await booked({
      user_id: person,
      project_id: busy,
      from: '2027-04-05',
      to: '2027-04-09',
      hours_per_day: 6,
    });
    const placeholder = await newPlaceholder('Over capacity');
    const theirs = await booked({
      placeholder_id: placeholder.id,
      project_id: pipeline,
      from: '2027-04-07',
      to: '2027-04-13',
      hours_per_day: 4,
    });
    const answer = await assign(placeholder, { user_id: person, capacity_policy: 'reject' });
    board.expectError(answer, 422, 'OverCapacityError');
    expect(answer.json<FillAnswer>().over_allocated_days).toEqual(
      ['07', '08', '09'].map((day) => ({ date: `2027-04-${day}`, capacity: 8, booked: 10, over: 2 })),
    );
    expect(await list(`placeholder_ids=${placeholder.id}`)).toMatchObject([
      { id: theirs.id, version: theirs.version, total_hours: 20 },
    ]);
    expect(await list(`user_ids=${person}`)).toMatchObject([
      { id: mine.id, version: mine.version, total_hours: 30 },
    ]);

    // Under warn it moves, and answers the days.
    const warned = await filled(placeholder, { user_id: person, capacity_policy: 'warn' });
    expect(warned.over_allocated_days.map((day) => day.date)).toEqual([
      '2027-04-07',
      '2027-04-08',
      '2027-04-09',
    ]);
    const overEvents = (await board.feed()).filter(
      (event) => event.entity === 'availability' && event.kind === 'over_allocated' && event.id === theirs.id,
    );
    expect(overEvents).toHaveLength(3);
  });

  it("answers 409 on an overlap with the person's booking on the same project, moving nothing", async () => {
    const project = await board.newProject('Fill: overlap');
    const person = await board.newPerson();
    const mine = await booked({
      user_id: person,
      project_id: project,
      from: '2027-05-03',
      to: '2027-05-07',
      hours_per_day: 2,
    });
    const placeholder = await newPlaceholder('Overlapping');
    const early = await booked({
      placeholder_id: placeholder.id,
      project_id: await board.newProject('Fill: overlap, other'),
      from: '2027-04-26',
      to: '2027-04-30',
      hours_per_day: 2,
    });
    const theirs = await booked({
      placeholder_id: placeholder.id,
      project_id: project,
      from: '2027-05-06',
      to: '2027-05-14',
      hours_per_day: 2,
    });
    board.expectError(
      await assign(placeholder, { user_id: person }),
      409,
      'AllocationAlreadyExistInDatesRangeError',
    );
    expect(
      (await list(`placeholder_ids=${placeholder.id}`)).map((allocation) => [
        allocation.id,
        allocation.version,
      ]),
    ).toEqual([
      [early.id, early.version],
      [theirs.id, theirs.version],
    ]);
    expect((await list(`user_ids=${person}`)).map((allocation) => allocation.id)).toEqual([mine.id]);
  });

  it('is atomic: readers never see hours half moved, and of two fills under reject exactly one wins', async () => {
    const project = await board.newProject('Fill: atomic');
    const person = await board.newPerson();
    const placeholder = await newPlaceholder('Year-long');
    await booked({
      placeholder_id: placeholder.id,
      project_id: project,
      from: '2027-06-01',
      to: '2027-12-31',
      total_hours: 1000,
    });
    await booked({
      placeholder_id: placeholder.id,
      project_id: project,
      from: '2028-01-03',
      to: '2028-05-31',
      total_hours: 333.33,
    });
    const total = sumOf(await list(`project_ids=${project}`));
    let done = false;
    const fill = filled(placeholder, { user_id: person }).finally(() => {
      done = true;
    });
    const reads: number[][] = [];
    const reader = async () => {
      do {
        // One statement each: the project's allocations, whoever books them (placeholder + person,
        // constant), and each side alone (all or none of it; two statements cannot be one snapshot).
        const [both, onPlaceholder, onPerson] = await Promise.all([
          list(`project_ids=${project}`),
          list(`placeholder_ids=${placeholder.id}`),
          list(`user_ids=${person}&project_ids=${project}`),
        ]);
        reads.push([sumOf(both), sumOf(onPlaceholder), sumOf(onPerson)]);
      } while (!done);
    };
    await Promise.all([reader(), reader(), reader(), fill]);
    expect(reads.length).toBeGreaterThan(3);
    for (const [both, onPlaceholder, onPerson] of reads) {
      expect(both).toBe(total);
      expect([0, total]).toContain(onPlaceholder);
      expect([0, total]).toContain(onPerson);
    }
    expect(sumOf(await list(`user_ids=${person}&project_ids=${project}`))).toBe(total);

    // Two fills of one placeholder, to two people; only one has the capacity: exactly one wins.
    const free = await board.newPerson();
    const busy = await board.newPerson();
    await booked({
      user_id: busy,
      project_id: await board.newProject('Fill: atomic, busy'),
      from: '2028-07-03',
      to: '2028-07-07',
      hours_per_day: 6,
    });
    const contested = await newPlaceholder('Contested');
    const booking = await booked({
      placeholder_id: contested.id,
      project_id: project,
      from: '2028-07-03',
      to: '2028-07-07',
      hours_per_day: 8,
    });
    const answers = await Promise.all(
      [busy, free].map((user) => assign(contested, { user_id: user, capacity_policy: 'reject' })),
    );
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(1);
    expect([409, 422]).toContain(answers[0]?.statusCode);
    expect(answers[1]?.statusCode).toBe(200);
    expect(await list(`placeholder_ids=${contested.id}`)).toEqual([]);
    expect((await list(`user_ids=${free}&from=2028-07-01`)).map((allocation) => allocation.id)).toEqual([
      booking.id,
    ]);
    expect(await list(`user_ids=${busy}&from=2028-07-01&project_ids=${project}`)).toEqual([]);
  });
});
