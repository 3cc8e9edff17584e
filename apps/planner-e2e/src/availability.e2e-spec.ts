import { startBoard, type Board } from './support/board-harness';

interface Figures {
  working: number;
  holidays: number;
  time_off: number;
  capacity: number;
  confirmed: number;
  tentative: number;
  available: number;
  utilization: number | null;
}
interface Period extends Figures {
  from: string;
  to: string;
}
interface ExplainedDay extends Figures {
  date: string;
  schedule_from: string | null;
  holiday_names: string[];
  leaves: { id: number | null; hours: number }[];
  allocations: { allocation_id: string; project_id: number; status: string; hours: number }[];
}
interface Person {
  user_id: number;
  first_name: string;
  last_name: string;
  time_zone: string;
  totals: Figures;
  series: Period[];
  days?: ExplainedDay[];
}
interface Availability {
  granularity: string;
  include_tentative: boolean;
  people: Person[];
}
interface Candidate {
  user_id: number;
  first_fit: { from: string; to: string };
  reasons: { hours_free: number; labels_matched: number[]; position_matched: boolean };
}

const week = (days: number[], hours: number, startAt: string, endAt: string) =>
  days.map((day) => ({ day_of_week: day, daily_hours: hours, start_at: startAt, end_at: endAt }));

/**
 * Who is free, when (issue 38), as a planning board asks it: two people with different holiday
 * calendars, time zones, working weeks (one changing on 3 January 2028), leaves and bookings, over
 * the two weeks from Monday 27 December 2027; every figure below is worked out by hand in the
 * comments, day by day.
 */
describe('planner v2: availability across people, calendars and time zones (e2e)', () => {
  let board: Board;
  let ada: number;
  let bob: number;
  let team: number;
  let senior: number;
  let adaLeave: number;
  let bobPartialLeave: number;
  let bobAllDayLeave: number;
  let bobRequestedLeave: number;
  let projectP: number;
  let projectQ: number;
  let epiphany: string;
  let adaFirstSchedule: string;

  const mainOk = <T>(method: 'GET' | 'POST' | 'PUT', url: string, body?: object, status = 200) =>
    board.ok<T>(board.main.call(method, url, body), status);
  const availability = (query: string) =>
    board.ok<Availability>(board.call('GET', `/v2/availability?${query}`));
  const personIn = (answer: Availability, userId: number): Person => {
    const person = answer.people.find((candidate) => candidate.user_id === userId);
    expect(person).toBeDefined();
    return person as Person;
  };

  beforeAll(async () => {
    board = await startBoard(['Avail', 'Other']);
    projectP = await board.newProject('P');
    projectQ = await board.newProject('Q');
    const designer = await mainOk<{ id: number }>('POST', '/positions', { name: 'Designer' }, 201);
    senior = (
      await mainOk<{ id: number }>(
        'POST',
        '/labels',
        { name: 'Senior', color: '#112233', model: 'user' },
        201,
      )
    ).id;
    const person = async (firstName: string, lastName: string, extra: object) =>
      (
        await mainOk<{ id: number }>(
          'POST',
          '/users',
          {
            first_name: firstName,
            last_name: lastName,
            email: `${firstName}@avail.test`,
            role_id: 4,
            ...extra,
          },
          201,
        )
      ).id;
    ada = await person('Ada', 'Lovelace', { labels: [senior], user_position_id: designer.id });
    bob = await person('Bob', 'Marley', {});

    // Ada: Bavaria's public holidays, Berlin time; Monday to Friday 8 hours until 2 January 2028,
    // then Monday to Thursday 6 hours.
    const bavaria = await mainOk<{ id: number }>(
      'POST',
      '/holiday-calendars',
      { name: 'Munich office', country: 'DE', region: 'BY' },
      201,
    );
    await mainOk('POST', `/holiday-calendars/${bavaria.id}/import?year=2028`, undefined);
    const holidays = await mainOk<{ date: string; name: string; hours_off: number | null }[]>(
      'GET',
      `/holiday-calendars/${bavaria.id}/holidays?from=2028-01-06&to=2028-01-06`,
    );
    expect(holidays).toHaveLength(1);
    expect(holidays[0]?.hours_off).toBeNull();
    epiphany = holidays[0]?.name;
    await mainOk(
      'POST',
      `/users/${ada}/holiday-calendars`,
      { calendar_id: bavaria.id, effective_from: '2027-01-01' },
      201,
    );
    await mainOk('PUT', `/users/${ada}/time-zone`, { time_zone: 'Europe/Berlin' });
    await mainOk('PUT', `/working-time/users/${ada}`, {
      entries: week([1, 2, 3, 4, 5], 8, '09:00:00', '17:00:00'),
    });
    await mainOk(
      'POST',
      `/working-time/users/${ada}/schedules`,
      { effective_from: '2028-01-03', entries: week([1, 2, 3, 4], 6, '09:00:00', '15:00:00') },
      201,
    );
    const adaSchedules = await mainOk<{ effective_from: string }[]>(
      'GET',
      `/working-time/users/${ada}/schedules`,
    );
    adaFirstSchedule = adaSchedules[0]?.effective_from;

    // Bob: the studio's own days off, Auckland time; Monday to Friday 7.5 hours.
    const studio = await mainOk<{ id: number }>('POST', '/holiday-calendars', { name: 'Studio' }, 201);
    await mainOk(
      'POST',
      `/holiday-calendars/${studio.id}/holidays`,
      { date: '2027-12-27', name: 'Studio closed' },
      201,
    );
    await mainOk(
      'POST',
      `/holiday-calendars/${studio.id}/holidays`,
      { date: '2027-12-28', name: 'Studio half day', hours_off: 3 },
      201,
    );
    await mainOk(
      'POST',
      `/users/${bob}/holiday-calendars`,
      { calendar_id: studio.id, effective_from: '2027-01-01' },
      201,
    );
    await mainOk('PUT', `/users/${bob}/time-zone`, { time_zone: 'Pacific/Auckland' });
    await mainOk('PUT', `/working-time/users/${bob}`, {
      entries: week([1, 2, 3, 4, 5], 7.5, '09:00:00', '17:30:00'),
    });

    // Leaves, through the interface's route (approved). Ada: 13:00-15:00 in Berlin on Wednesday 29
    // December (12:00-14:00 UTC). Bob: 10:00-12:00 in Auckland on Thursday 30 December, which is
    // still the 29th in UTC (21:00-23:00Z); and all of 3 and 4 January.
    const leave = async (userId: number, start: string, end: string, allDay: boolean) =>
      (
        await mainOk<{ id: number }>(
          'POST',
          '/user/leaves',
          { userId, leaveTypeId: 1, start, end, allDay },
          201,
        )
      ).id;
    adaLeave = await leave(ada, '2027-12-29T12:00:00Z', '2027-12-29T14:00:00Z', false);
    bobPartialLeave = await leave(bob, '2027-12-29T21:00:00Z', '2027-12-29T23:00:00Z', false);
    bobAllDayLeave = await leave(bob, '2028-01-03T00:00:00Z', '2028-01-04T23:59:59Z', true);

    // Bob also asks for Wednesday 5 January off: requested, it counts for nothing yet.
    bobRequestedLeave = (
      await mainOk<{ id: number; status: string }>(
        'POST',
        '/leaves',
        {
          user_id: bob,
          leave_type_id: 1,
          start: '2028-01-05',
          end: '2028-01-05',
          all_day: true,
          status: 'requested',
        },
        201,
      )
    ).id;

    team = (await mainOk<{ id: number }>('POST', '/teams', { name: 'Board' }, 201)).id;
    await mainOk('POST', `/teams/${team}/users`, { user_ids: [ada, bob] }, 201);

    // Bookings. Ada: 4 hours a day on P from 27 December to 7 January (confirmed), and 10 hours on Q
    // over 27-28 December (tentative, 5 + 5). Bob: 20 hours on P over 5-7 January (6.67 + 6.67 + 6.66).
    const book = (body: object) => board.ok(board.call('POST', '/v2/allocations', body), 201);
    await book({
      user_id: ada,
      project_id: projectP,
      from: '2027-12-27',
      to: '2028-01-07',
      hours_per_day: 4,
    });
    await book({
      user_id: ada,
      project_id: projectQ,
      from: '2027-12-27',
      to: '2027-12-28',
      total_hours: 10,
      status: 'tentative',
    });
    await book({ user_id: bob, project_id: projectP, from: '2028-01-05', to: '2028-01-07', total_hours: 20 });
  });

  afterAll(async () => {
    await board?.close();
  });

  it('answers each person by week, each week the sum of its days, worked out by hand', async () => {
    const answer = await availability(`team_id=${team}&from=2027-12-27&to=2028-01-09&granularity=week`);

    expect(answer.people.map((person) => person.user_id)).toEqual([ada, bob]); // Lovelace, Marley
    const adaAnswer = personIn(answer, ada);
    expect(adaAnswer.time_zone).toBe('Europe/Berlin');
    // Week 1: 5 × 8 = 40 working; 1 January is a Saturday; 2 hours of leave on the 29th: 38.
    // Confirmed 5 × 4 = 20, tentative 5 + 5 = 10; available 38 − 20 = 18.
    // Week 2: Monday to Thursday 6 hours = 24; Epiphany (Thursday 6th) takes 6: 18. Confirmed 4 on
    // Monday to Wednesday, none on the holiday nor on Friday (no hours): 12; available 6.
    expect(adaAnswer.series).toEqual([
      {
        from: '2027-12-27',
        to: '2028-01-02',
        working: 40,
        holidays: 0,
        time_off: 2,
        capacity: 38,
        confirmed: 20,
        tentative: 10,
        available: 18,
        utilization: 0.5263,
      },
      {
        from: '2028-01-03',
        to: '2028-01-09',
        working: 24,
        holidays: 6,
        time_off: 0,
        capacity: 18,
        confirmed: 12,
        tentative: 0,
        available: 6,
        utilization: 0.6667,
      },
    ]);
    expect(adaAnswer.totals).toEqual({
      working: 64,
      holidays: 6,
      time_off: 2,
      capacity: 56,
      confirmed: 32,
      tentative: 10,
      available: 24,
      utilization: 0.5714,
    });

    const bobAnswer = personIn(answer, bob);
    expect(bobAnswer.time_zone).toBe('Pacific/Auckland');
    // Week 1: 5 × 7.5 = 37.5; the studio's 27th (7.5) and half of the 28th (3): 10.5; the leave on
    // Thursday 30th in Auckland: 2; capacity 25, nothing booked.
    // Week 2: 37.5, leave on 3 and 4 January (15): 22.5; booked 20: 2.5 available.
    expect(
      bobAnswer.series.map(({ working, holidays, time_off, capacity, confirmed, available }) => ({
        working,
        holidays,
        time_off,
        capacity,
        confirmed,
        available,
      })),
    ).toEqual([
      { working: 37.5, holidays: 10.5, time_off: 2, capacity: 25, confirmed: 0, available: 25 },
      { working: 37.5, holidays: 0, time_off: 15, capacity: 22.5, confirmed: 20, available: 2.5 },
    ]);
  });

  it('explains every day: the schedule in force, the holiday, the leave and the bookings', async () => {
    const answer = await availability(`user_ids=${ada},${bob}&from=2027-12-27&to=2028-01-09&explain=true`);
    const adaDays = new Map(personIn(answer, ada).days?.map((day) => [day.date, day]));
    expect(adaDays.size).toBe(14);
    expect(adaDays.get('2027-12-29')).toMatchObject({
      working: 8,
      time_off: 2,
      capacity: 6,
      confirmed: 4,
      available: 2,
      schedule_from: adaFirstSchedule,
      holiday_names: [],
      leaves: [{ id: adaLeave, hours: 2 }],
      allocations: [{ project_id: projectP, status: 'confirmed', hours: 4 }],
    });
    expect(
      adaDays
        .get('2027-12-27')
        ?.allocations.map((booking) => [booking.project_id, booking.status, booking.hours]),
    ).toEqual([
      [projectP, 'confirmed', 4],
      [projectQ, 'tentative', 5],
    ]);
    expect(adaDays.get('2028-01-06')).toMatchObject({
      working: 6,
      holidays: 6,
      capacity: 0,
      confirmed: 0,
      schedule_from: '2028-01-03',
      holiday_names: [epiphany],
      allocations: [],
    });
    expect(adaDays.get('2028-01-07')).toMatchObject({ working: 0, capacity: 0, schedule_from: '2028-01-03' });

    const bobDays = new Map(personIn(answer, bob).days?.map((day) => [day.date, day]));
    expect(bobDays.get('2027-12-29')).toMatchObject({ time_off: 0, capacity: 7.5, leaves: [] });
    expect(bobDays.get('2027-12-30')).toMatchObject({
      time_off: 2,
      capacity: 5.5,
      leaves: [{ id: bobPartialLeave, hours: 2 }],
    });
    expect(bobDays.get('2027-12-28')).toMatchObject({
      holidays: 3,
      capacity: 4.5,
      holiday_names: ['Studio half day'],
    });
    expect(bobDays.get('2028-01-04')).toMatchObject({
      time_off: 7.5,
      capacity: 0,
      leaves: [{ id: bobAllDayLeave, hours: 7.5 }],
    });
    expect([5, 6, 7].map((day) => bobDays.get(`2028-01-0${day}`)?.confirmed)).toEqual([6.67, 6.67, 6.66]);

    // The days sum to the series of any granularity.
    const sum = (days: ExplainedDay[], field: keyof Figures) =>
      Math.round(days.reduce((total, day) => total + (day[field] as number), 0) * 100) / 100;
    const monthly = await availability(`user_ids=${ada}&from=2027-12-27&to=2028-01-09&granularity=month`);
    const adaAll = [...adaDays.values()];
    expect(personIn(monthly, ada).series.map((period) => [period.from, period.to, period.capacity])).toEqual([
      [
        '2027-12-27',
        '2027-12-31',
        sum(
          adaAll.filter((day) => day.date <= '2027-12-31'),
          'capacity',
        ),
      ],
      [
        '2028-01-01',
        '2028-01-09',
        sum(
          adaAll.filter((day) => day.date >= '2028-01-01'),
          'capacity',
        ),
      ],
    ]);
    expect(personIn(monthly, ada).totals.capacity).toBe(56);
  });

  it('counts tentative bookings when asked to', async () => {
    const answer = await availability(`user_ids=${ada}&from=2027-12-27&to=2028-01-02&include_tentative=true`);
    // 38 capacity, 20 confirmed + 10 tentative: 8 available, 30 / 38 booked.
    expect(personIn(answer, ada).totals).toMatchObject({ available: 8, utilization: 0.7895 });
  });

  it('tags the answer from its inputs: a repeated poll is a 304 until something it reads changes', async () => {
    const url = `/v2/availability?user_ids=${ada}&from=2027-12-27&to=2028-01-09&granularity=week`;
    const first = await board.call('GET', url);
    expect(first.statusCode).toBe(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"av-/);

    const again = await board.call('GET', url, undefined, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');

    // A change in main-api (Ada's time zone: Paris, the same hours as Berlin) moves its revision.
    await mainOk('PUT', `/users/${ada}/time-zone`, { time_zone: 'Europe/Paris' });
    const afterMainApi = await board.call('GET', url, undefined, { 'if-none-match': etag });
    expect(afterMainApi.statusCode).toBe(200);
    const second = afterMainApi.headers.etag as string;
    expect(second).not.toBe(etag);
    expect((await board.call('GET', url, undefined, { 'if-none-match': second })).statusCode).toBe(304);

    // A booking moves the planner's.
    await board.ok(
      board.call('POST', '/v2/allocations', {
        user_id: ada,
        project_id: projectQ,
        from: '2028-01-09',
        to: '2028-01-09',
        total_hours: 0,
        status: 'tentative',
      }),
      201,
    );
    expect((await board.call('GET', url, undefined, { 'if-none-match': second })).statusCode).toBe(200);
  });

  it('finds who has the hours free, best first, with the first window that fits and why', async () => {
    const search = (query: string) =>
      board.ok<{ people: Candidate[]; considered: number }>(
        board.call('GET', `/v2/availability/search?${query}`),
      );
    // Free hours, day by day (tentative left out). Ada: 4, 4, 2, 4, 4 in December, then 2, 2, 2:
    // 20 reached on 3 January, 24 in all. Bob: 0, 4.5, 7.5, 5.5, 7.5 (20 reached on the 31st), then
    // 0.83, 0.83, 0.84 after his 20 booked hours: 27.5 in all.
    const twenty = await search('from=2027-12-27&to=2028-01-09&hours=20');
    expect(
      twenty.people.map((candidate) => [
        candidate.user_id,
        candidate.first_fit,
        candidate.reasons.hours_free,
      ]),
    ).toEqual([
      [bob, { from: '2027-12-28', to: '2027-12-31' }, 27.5],
      [ada, { from: '2027-12-27', to: '2028-01-03' }, 24],
    ]);
    expect(twenty.considered).toBeGreaterThanOrEqual(3); // the boss too, who has no working week

    const seniorFirst = await search(`from=2027-12-27&to=2028-01-09&hours=20&label_ids=${senior}`);
    expect(
      seniorFirst.people.map((candidate) => [candidate.user_id, candidate.reasons.labels_matched]),
    ).toEqual([
      [ada, [senior]],
      [bob, []],
    ]);

    const twentyFive = await search('from=2027-12-27&to=2028-01-09&hours=25');
    expect(twentyFive.people.map((candidate) => candidate.user_id)).toEqual([bob]);
    expect((await search('from=2027-12-27&to=2028-01-09&hours=30')).people).toEqual([]);
  });

  it('counts a leave once it is approved, not while it is requested', async () => {
    const read = async () =>
      personIn(await availability(`user_ids=${bob}&from=2028-01-03&to=2028-01-09`), bob).totals;
    expect(await read()).toMatchObject({ time_off: 15, capacity: 22.5, confirmed: 20, available: 2.5 });

    await mainOk('POST', `/leaves/${bobRequestedLeave}/approve`);
    // Wednesday 5 January off too: 22.5 hours off, 15 left, and his 20 booked hours are 5 too many.
    expect(await read()).toMatchObject({
      time_off: 22.5,
      capacity: 15,
      confirmed: 20,
      available: -5,
      utilization: 1.3333,
    });
  });

  it('refuses what it cannot answer with a named 400', async () => {
    const refused = async (query: string) => {
      const answer = await board.call('GET', `/v2/availability?${query}`);
      expect({ status: answer.statusCode, error: answer.json<{ error: string }>().error }).toEqual({
        status: 400,
        error: expect.stringMatching(/Error$/),
      });
    };
    await refused('from=2027-12-27&to=2028-01-09'); // nobody named
    await refused(`user_ids=${ada}&team_id=${team}&from=2027-12-27&to=2028-01-09`); // two ways
    await refused(`user_ids=${ada}&from=2028-01-09&to=2027-12-27`);
    await refused(`user_ids=${ada}&from=2027-01-01&to=2028-01-02`); // 367 days
    await refused(`user_ids=${ada}&from=2027-02-30&to=2027-03-02`);
    await refused(`user_ids=${ada}&from=2027-12-27&to=2028-01-09&granularity=year`);
    await refused(
      `user_ids=${Array.from({ length: 201 }, (_, index) => index + 1).join(',')}&from=2027-12-27&to=2027-12-28`,
    );
    const search = await board.call('GET', '/v2/availability/search?from=2027-12-27&to=2028-01-09&hours=-1');
    expect(search.statusCode).toBe(400);
  });

  it("never answers another company's people", async () => {
    const other = board.main.companies[1];
    const answer = await board.call(
      'GET',
      `/v2/availability?user_ids=${ada},${bob}&from=2027-12-27&to=2028-01-09`,
      undefined,
      { authorization: board.tokenOf(other.companyId, other.userId) },
    );
    expect(answer.statusCode).toBe(200);
    expect(answer.json<Availability>().people).toEqual([]);
  });
});
