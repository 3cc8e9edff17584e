import { startMainApiTestApp, type MainApiTestApp } from './support/main-api-test-app';

interface Calendar {
  id: number;
  version: number;
  name: string;
  country: string | null;
  region: string | null;
}
interface Holiday {
  id: number;
  calendar_id: number;
  date: string;
  name: string;
  hours_off: number | null;
  source: string;
}
interface Imported {
  year: number;
  created: number;
  updated: number;
  unchanged: number;
  holidays: Holiday[];
}

// France's public holidays in 2027, as the date-holidays dataset has them (English names).
const FRANCE_2027 = [
  '2027-01-01',
  '2027-03-29',
  '2027-05-01',
  '2027-05-06',
  '2027-05-08',
  '2027-05-17',
  '2027-07-14',
  '2027-08-15',
  '2027-11-01',
  '2027-11-11',
  '2027-12-25',
];

/** Holiday calendars (issue 38): a company's days off, and a country's imported for a year. */
describe('main-api holiday calendars (e2e)', () => {
  let app: MainApiTestApp;
  let companyB: number;

  beforeAll(async () => {
    app = await startMainApiTestApp(['HA', 'HB']);
    companyB = app.companies[1].companyId;
  });

  afterAll(() => app.close());

  const created = async <T>(response: Promise<{ statusCode: number; json<R>(): R; body: string }>) => {
    const answer = await response;
    expect({ status: answer.statusCode, body: answer.body }).toMatchObject({ status: 201 });
    return answer.json<T>();
  };

  it("imports a country's public holidays for a year, and a second import changes nothing", async () => {
    const france = await created<Calendar>(
      app.call('POST', '/holiday-calendars', { name: 'France', country: 'FR' }),
    );

    const first = await app.call('POST', `/holiday-calendars/${france.id}/import?year=2027`);
    const again = await app.call('POST', `/holiday-calendars/${france.id}/import?year=2027`);

    expect(first.statusCode).toBe(200);
    expect(first.json<Imported>()).toMatchObject({ year: 2027, created: 11, updated: 0, unchanged: 0 });
    expect(first.json<Imported>().holidays.map((holiday) => holiday.date)).toEqual(FRANCE_2027);
    expect(first.json<Imported>().holidays[10]).toMatchObject({
      date: '2027-12-25',
      name: 'Christmas Day',
      hours_off: null,
      source: 'import',
      calendar_id: france.id,
    });
    expect(again.json<Imported>()).toMatchObject({ created: 0, updated: 0, unchanged: 11 });
    const listed = await app.call(
      'GET',
      `/holiday-calendars/${france.id}/holidays?from=2027-05-01&to=2027-05-31`,
    );
    expect(listed.json<Holiday[]>().map((holiday) => holiday.date)).toEqual([
      '2027-05-01',
      '2027-05-06',
      '2027-05-08',
      '2027-05-17',
    ]);
  });

  it('keeps the company’s own days, and a half day, through an import', async () => {
    const calendar = await created<Calendar>(
      app.call('POST', '/holiday-calendars', { name: 'Bavaria office', country: 'DE', region: 'BY' }),
    );
    const eve = await created<Holiday>(
      app.call('POST', `/holiday-calendars/${calendar.id}/holidays`, {
        date: '2027-12-24',
        name: 'Christmas Eve (afternoon)',
        hours_off: 4,
      }),
    );
    // The company names New Year its own way: an import leaves it.
    await created<Holiday>(
      app.call('POST', `/holiday-calendars/${calendar.id}/holidays`, {
        date: '2027-01-01',
        name: 'Neujahr (ours)',
      }),
    );

    const imported = (
      await app.call('POST', `/holiday-calendars/${calendar.id}/import?year=2027`)
    ).json<Imported>();

    expect(eve).toMatchObject({ hours_off: 4, source: 'manual' });
    expect(imported.unchanged).toBeGreaterThanOrEqual(1);
    const byDate = new Map(imported.holidays.map((holiday) => [holiday.date, holiday]));
    expect(byDate.get('2027-01-01')).toMatchObject({ name: 'Neujahr (ours)', source: 'manual' });
    expect(byDate.get('2027-12-24')).toMatchObject({ hours_off: 4, source: 'manual' });
    // Bavaria's own holidays are in: Epiphany (6 January) and Corpus Christi (27 May 2027).
    expect(byDate.has('2027-01-06')).toBe(true);
    expect(byDate.has('2027-05-27')).toBe(true);
  });

  it('changes with If-Match, refuses a second holiday on a day (422), and removes', async () => {
    const calendar = await created<Calendar>(
      app.call('POST', '/holiday-calendars', { name: 'Company days' }),
    );
    const day = await created<Holiday>(
      app.call('POST', `/holiday-calendars/${calendar.id}/holidays`, {
        date: '2027-08-13',
        name: 'Summer party',
      }),
    );

    const twice = await app.call('POST', `/holiday-calendars/${calendar.id}/holidays`, {
      date: '2027-08-13',
      name: 'Another',
    });
    expect(twice.statusCode).toBe(422);
    expect(twice.json<{ message: string }>().message).toContain('already has a holiday on that date');

    const read = await app.call('GET', `/holiday-calendars/${calendar.id}/holidays/${day.id}`);
    const etag = read.headers.etag as string;
    const changed = await app.call(
      'PATCH',
      `/holiday-calendars/${calendar.id}/holidays/${day.id}`,
      { hours_off: 3.5 },
      { headers: { 'if-match': etag } },
    );
    expect(changed.statusCode).toBe(200);
    expect(changed.json<Holiday>()).toMatchObject({ hours_off: 3.5, name: 'Summer party' });
    const stale = await app.call(
      'PATCH',
      `/holiday-calendars/${calendar.id}/holidays/${day.id}`,
      { name: 'Late' },
      { headers: { 'if-match': etag } },
    );
    expect(stale.statusCode).toBe(412);

    const renamed = await app.call(
      'PATCH',
      `/holiday-calendars/${calendar.id}`,
      { name: 'Company days off' },
      {
        headers: {
          'if-match': (await app.call('GET', `/holiday-calendars/${calendar.id}`)).headers.etag as string,
        },
      },
    );
    expect(renamed.json<Calendar>()).toMatchObject({
      name: 'Company days off',
      version: calendar.version + 1,
    });

    expect(
      (await app.call('DELETE', `/holiday-calendars/${calendar.id}/holidays/${day.id}`)).statusCode,
    ).toBe(204);
    expect((await app.call('GET', `/holiday-calendars/${calendar.id}/holidays/${day.id}`)).statusCode).toBe(
      404,
    );
    expect((await app.call('DELETE', `/holiday-calendars/${calendar.id}`)).statusCode).toBe(200);
    expect((await app.call('GET', `/holiday-calendars/${calendar.id}`)).statusCode).toBe(404);
  });

  it('keeps the region when the country stays, and clears it when the country changes', async () => {
    const calendar = await created<Calendar>(
      app.call('POST', '/holiday-calendars', { name: 'Moving office', country: 'DE', region: 'BY' }),
    );

    const same = await app.call('PATCH', `/holiday-calendars/${calendar.id}`, {
      country: 'DE',
      name: 'Munich',
    });
    const moved = await app.call('PATCH', `/holiday-calendars/${calendar.id}`, { country: 'AT' });
    const wrongRegion = await app.call('PATCH', `/holiday-calendars/${calendar.id}`, { region: 'BY' });

    expect(same.json<Calendar>()).toMatchObject({ name: 'Munich', country: 'DE', region: 'BY' });
    expect(moved.json<Calendar>()).toMatchObject({ country: 'AT', region: null });
    expect(wrongRegion.statusCode).toBe(400);
  });

  it.each([
    [{ name: 'Nowhere', country: 'XX' }, 'country'],
    [{ name: 'Lower', country: 'fr' }, 'country'],
    [{ name: 'No such region', country: 'DE', region: 'ZZ' }, 'region'],
    [{ name: 'Region alone', region: 'BY' }, 'region'],
    [{ name: '' }, 'name'],
  ])('refuses a calendar the dataset cannot import (%j) with a 400 naming %s', async (body, field) => {
    const answer = await app.call('POST', '/holiday-calendars', body);

    expect(answer.statusCode).toBe(400);
    expect(answer.body).toContain(field);
  });

  it.each([
    [{ date: '2027-02-30', name: 'No such day' }],
    [{ date: '2027-03-01', name: 'Too long', hours_off: 25 }],
    [{ date: '2027-03-01', name: 'Too small', hours_off: 0 }],
    [{ date: '2027-03-01', name: 'Cents of cents', hours_off: 1.234 }],
    [{ date: '2027-03-01' }],
  ])('refuses a malformed holiday (%j) with a 400', async (body) => {
    const calendar = await created<Calendar>(app.call('POST', '/holiday-calendars', { name: 'Checks' }));

    expect((await app.call('POST', `/holiday-calendars/${calendar.id}/holidays`, body)).statusCode).toBe(400);
  });

  it('answers 422 to an import without a country, and 400 to a year out of range', async () => {
    const calendar = await created<Calendar>(
      app.call('POST', '/holiday-calendars', { name: 'Own days only' }),
    );

    expect((await app.call('POST', `/holiday-calendars/${calendar.id}/import?year=2027`)).statusCode).toBe(
      422,
    );
    expect((await app.call('POST', `/holiday-calendars/${calendar.id}/import?year=1800`)).statusCode).toBe(
      400,
    );
    expect((await app.call('POST', `/holiday-calendars/${calendar.id}/import`)).statusCode).toBe(400);
  });

  it('keeps companies apart, lets roles 3-5 read but not write, and feeds the changes', async () => {
    const ours = await created<Calendar>(
      app.call('POST', '/holiday-calendars', { name: 'Ours', country: 'IE' }),
    );

    expect(
      (await app.call('GET', `/holiday-calendars/${ours.id}`, undefined, { company: companyB })).statusCode,
    ).toBe(404);
    expect(
      (
        await app.call('POST', `/holiday-calendars/${ours.id}/import?year=2027`, undefined, {
          company: companyB,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await app.call('GET', '/holiday-calendars', undefined, { company: companyB })).json(),
    ).toMatchObject({
      data: [],
    });
    expect((await app.call('GET', `/holiday-calendars/${ours.id}`, undefined, { role: 4 })).statusCode).toBe(
      200,
    );
    expect(
      (await app.call('POST', '/holiday-calendars', { name: 'Not mine to make' }, { role: 3 })).statusCode,
    ).toBe(403);

    await app.call('POST', `/holiday-calendars/${ours.id}/import?year=2027`);
    const events = (await app.call('GET', `/events?after=0&limit=1000`)).json<{
      data: { entity: string; id: number; kind: string; changed_fields: string[] }[];
    }>();
    const mine = events.data.filter((event) => event.entity === 'holiday-calendars' && event.id === ours.id);
    expect(mine[0]).toMatchObject({ kind: 'created' });
    expect(mine.some((event) => event.kind === 'updated' && event.changed_fields.includes('holidays'))).toBe(
      true,
    );
  });
});

/** People's calendars from a date on, their time zone, and what the planner's look-up answers of them. */
describe('main-api people’s holiday calendars and time zones (e2e)', () => {
  let app: MainApiTestApp;
  let companyB: number;
  let person: number;

  beforeAll(async () => {
    app = await startMainApiTestApp(['PA', 'PB']);
    companyB = app.companies[1].companyId;
    person = (
      await app.call('POST', '/users', {
        first_name: 'Moving',
        last_name: 'Person',
        email: 'moving@calendars.test',
        role_id: 4,
      })
    ).json<{ id: number }>().id;
  });

  afterAll(() => app.close());

  const calendarWith = async (name: string, days: [string, string, number?][]): Promise<number> => {
    const id = (await app.call('POST', '/holiday-calendars', { name })).json<{ id: number }>().id;
    for (const [date, holiday, hoursOff] of days) {
      const added = await app.call('POST', `/holiday-calendars/${id}/holidays`, {
        date,
        name: holiday,
        ...(hoursOff === undefined ? {} : { hours_off: hoursOff }),
      });
      expect(added.statusCode).toBe(201);
    }
    return id;
  };

  it('answers the planner each day’s holiday of the calendar in force, in the person’s time zone', async () => {
    const paris = await calendarWith('Paris office', [
      ['2027-05-01', 'Labour Day'],
      ['2027-07-14', 'Bastille Day'],
    ]);
    const munich = await calendarWith('Munich office', [
      ['2027-07-14', 'Not a holiday here, but listed to prove the date rule'],
      ['2027-10-03', 'German Unity Day'],
      ['2027-12-24', 'Christmas Eve', 4],
    ]);
    // Paris until the move on 2027-07-15, Munich from then on.
    const first = await app.call('POST', `/users/${person}/holiday-calendars`, {
      calendar_id: paris,
      effective_from: '2027-01-01',
    });
    const moved = await app.call('POST', `/users/${person}/holiday-calendars`, {
      calendar_id: munich,
      effective_from: '2027-07-15',
    });
    const zone = await app.call('PUT', `/users/${person}/time-zone`, { time_zone: 'Europe/Berlin' });

    expect(first.statusCode).toBe(201);
    expect(moved.json()).toMatchObject({
      calendar_id: munich,
      calendar_name: 'Munich office',
      effective_from: '2027-07-15',
    });
    expect(zone.json()).toMatchObject({ user_id: person, time_zone: 'Europe/Berlin' });
    const lookups = await app.call(
      'GET',
      `/planner/lookups?user_ids=${person}&from=2027-01-01&to=2027-12-31`,
    );
    expect(lookups.json()).toMatchObject({
      time_zones: { [String(person)]: 'Europe/Berlin' },
      holidays: [
        { user_id: person, date: '2027-05-01', name: 'Labour Day', hours_off: null },
        { user_id: person, date: '2027-07-14', name: 'Bastille Day', hours_off: null },
        { user_id: person, date: '2027-10-03', name: 'German Unity Day', hours_off: null },
        { user_id: person, date: '2027-12-24', name: 'Christmas Eve', hours_off: 4 },
      ],
    });
    expect(lookups.json<{ holidays: unknown[] }>().holidays).toHaveLength(4);
    // The interface's user answer is unchanged: no time zone in it.
    expect(Object.keys((await app.call('GET', `/users/${person}`)).json<object>())).not.toContain(
      'time_zone',
    );
  });

  it('refuses what it cannot use, names it, and keeps companies apart', async () => {
    const calendar = (await app.call('POST', '/holiday-calendars', { name: 'Twice' })).json<{ id: number }>()
      .id;
    const theirs = (
      await app.call('POST', '/holiday-calendars', { name: 'Theirs' }, { company: companyB })
    ).json<{ id: number }>().id;

    const badZone = await app.call('PUT', `/users/${person}/time-zone`, { time_zone: 'Mars/Olympus' });
    const foreignCalendar = await app.call('POST', `/users/${person}/holiday-calendars`, {
      calendar_id: theirs,
      effective_from: '2028-01-01',
    });
    await app.call('POST', `/users/${person}/holiday-calendars`, {
      calendar_id: calendar,
      effective_from: '2029-01-01',
    });
    const sameDay = await app.call('POST', `/users/${person}/holiday-calendars`, {
      calendar_id: calendar,
      effective_from: '2029-01-01',
    });

    expect(badZone.statusCode).toBe(400);
    expect(badZone.body).toContain('time_zone');
    expect(foreignCalendar.statusCode).toBe(400);
    expect(foreignCalendar.body).toContain('calendar_id');
    expect(sameDay.statusCode).toBe(422);
    expect(
      (await app.call('GET', `/users/${person}/calendar`, undefined, { company: companyB })).statusCode,
    ).toBe(404);
    expect(
      (await app.call('PUT', `/users/${person}/time-zone`, { time_zone: 'UTC' }, { role: 3 })).statusCode,
    ).toBe(403);

    // Ending the 2029 membership lets the previous calendar run on.
    const memberships = (await app.call('GET', `/users/${person}/calendar`)).json<{
      memberships: { id: number; effective_from: string }[];
    }>().memberships;
    const last = memberships.find((membership) => membership.effective_from === '2029-01-01');
    expect((await app.call('DELETE', `/users/${person}/holiday-calendars/${last?.id}`)).statusCode).toBe(204);
    expect(
      (await app.call('GET', `/users/${person}/calendar`)).json<{ memberships: unknown[] }>().memberships,
    ).toHaveLength(2);
  });
});
