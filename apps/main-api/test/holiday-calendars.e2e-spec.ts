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
