import { ProvisioningService } from '../src/provisioning/provisioning.service';
import {
  fieldsOf,
  startMainApiTestApp,
  type CallOptions,
  type MainApiTestApp,
} from './support/main-api-test-app';

describe('main-api working time and leaves (e2e)', () => {
  let app: MainApiTestApp;
  let companyA: number;
  let companyB: number;
  let worker: number;
  let colleague: number;
  let foreigner: number;

  beforeAll(async () => {
    app = await startMainApiTestApp(['WA', 'WB']);
    [{ companyId: companyA }, { companyId: companyB, userId: foreigner }] = app.companies;
    const provisioning = new ProvisioningService(app.dataSource);
    worker = (
      await provisioning.addUser({
        companyId: companyA,
        email: 'w@wa.test',
        firstName: 'W',
        lastName: 'K',
        roleId: 4,
      })
    ).userId;
    colleague = (
      await provisioning.addUser({
        companyId: companyA,
        email: 'c@wa.test',
        firstName: 'C',
        lastName: 'L',
        roleId: 4,
      })
    ).userId;
  });

  afterAll(() => app.close());

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, body?: object, options: CallOptions = {}) =>
    app.call(method, url, body, { company: companyA, ...options });
  const as = (options: { company?: number; role?: number; user?: number } = {}): CallOptions => ({
    company: options.company ?? companyA,
    role: options.role ?? 1,
    subject: `user:${options.user ?? 1}`,
  });

  const week = [
    { day_of_week: 1, daily_hours: 8, start_at: '09:00:00', end_at: '18:00:00', break_time: 1 },
    { day_of_week: 2, daily_hours: 7.5, start_at: '09:00:00', end_at: '17:30:00' },
  ];

  describe('working time', () => {
    it("replaces a user's week and answers the entries", async () => {
      const response = await call('PUT', `/working-time/users/${worker}`, { entries: week });

      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual([
        {
          daily_hours: 8,
          day_of_week: 1,
          start_at: '09:00:00',
          end_at: '18:00:00',
          user_id: worker,
          break_time: 1,
        },
        {
          daily_hours: 7.5,
          day_of_week: 2,
          start_at: '09:00:00',
          end_at: '17:30:00',
          user_id: worker,
          break_time: 0,
        },
      ]);
      const replaced = await call('PUT', `/working-time/users/${worker}`, { entries: [week[0]] });
      expect(replaced.json()).toHaveLength(1);
    });

    it('answers the company object keyed by user id', async () => {
      await call('PUT', `/working-time/users/${colleague}`, { entries: [week[1]] });

      const response = await call('GET', '/working-time/company/with/users');

      expect(response.json()).toEqual({
        [String(worker)]: [expect.objectContaining({ day_of_week: 1, user_id: worker })],
        [String(colleague)]: [expect.objectContaining({ day_of_week: 2, user_id: colleague })],
      });
    });

    it('answers only the users asked for with user_ids, and refuses a malformed list', async () => {
      const some = await call('GET', `/working-time/company/with/users?user_ids=${colleague}`);
      const malformed = await call('GET', '/working-time/company/with/users?user_ids=1,,2');
      const tooLarge = await call('GET', '/working-time/company/with/users?user_ids=2147483648');

      expect(some.json()).toEqual({
        [String(colleague)]: [expect.objectContaining({ day_of_week: 2, user_id: colleague })],
      });
      expect(malformed.statusCode).toBe(400);
      expect(fieldsOf(malformed)).toEqual(['user_ids']);
      expect(tooLarge.statusCode).toBe(400);
    });

    it("never answers another company's weeks, even when asked for its user's id", async () => {
      const stored = await call(
        'PUT',
        `/working-time/users/${foreigner}`,
        { entries: [week[0]] },
        as({ company: companyB, user: foreigner }),
      );

      const asked = await call('GET', `/working-time/company/with/users?user_ids=${foreigner},${worker}`);
      const all = await call('GET', '/working-time/company/with/users');

      expect(stored.statusCode).toBe(200);
      expect(Object.keys(asked.json<object>())).toEqual([String(worker)]);
      expect(Object.keys(all.json<object>())).not.toContain(String(foreigner));
    });

    it.each([
      [[{ ...week[0], day_of_week: 7 }], 'entries.0.day_of_week'],
      [[{ ...week[0], daily_hours: 25 }], 'entries.0.daily_hours'],
      [[{ ...week[0], daily_hours: -1 }], 'entries.0.daily_hours'],
      [[{ ...week[0], start_at: '9:00' }], 'entries.0.start_at'],
      [[{ ...week[0], start_at: '18:00:00', end_at: '09:00:00' }], 'entries.0.start_at'],
      [[week[0], week[0]], 'entries'],
    ])('refuses %p naming %s', async (entries, field) => {
      const response = await call('PUT', `/working-time/users/${worker}`, { entries });

      expect(response.statusCode).toBe(400);
      expect(fieldsOf(response)).toContain(field);
    });

    it("answers 404 for another company's user and 403 for roles below Director", async () => {
      expect((await call('PUT', `/working-time/users/${foreigner}`, { entries: week })).statusCode).toBe(404);
      expect(
        (await call('PUT', `/working-time/users/${worker}`, { entries: week }, as({ role: 3 }))).statusCode,
      ).toBe(403);
    });
    it('documents the company object as user ids mapped to arrays of entries', async () => {
      const document = (await app.service.app.inject({ method: 'GET', url: '/docs-json' })).json<{
        paths: Record<
          string,
          Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>
        >;
        components: { schemas: Record<string, { properties: Record<string, Record<string, unknown>> }> };
      }>();
      const answer = document.paths['/v1/working-time/company/with/users'].get.responses['200'].content?.[
        'application/json'
      ] as { schema: Record<string, unknown> };
      const entry = document.components.schemas.WorkingTimeEntryDto;

      expect(answer.schema).toMatchObject({
        type: 'object',
        additionalProperties: { type: 'array', items: { $ref: '#/components/schemas/WorkingTimeEntryDto' } },
      });
      expect(entry.properties.day_of_week).toMatchObject({ type: 'integer', enum: [0, 1, 2, 3, 4, 5, 6] });
      expect(entry.properties.user_id).toMatchObject({ type: 'integer' });
      expect(entry.properties.start_at).toMatchObject({ pattern: expect.any(String) });
      expect(new RegExp(entry.properties.start_at.pattern as string).test('09:00:00')).toBe(true);
    });
  });

  describe('leaves', () => {
    const leave = (userId: number, start: string, end: string) => ({
      userId,
      leaveTypeId: 1,
      start,
      end,
      allDay: true,
    });

    it('creates a leave and answers the docs/spec/interfaces.md fields', async () => {
      const response = await call(
        'POST',
        '/user/leaves',
        leave(worker, '2026-12-21T00:00:00Z', '2026-12-24T23:59:59Z'),
      );

      expect(response.statusCode).toBe(201);
      expect(response.json()).toEqual({
        id: expect.any(Number),
        user_id: worker,
        company_id: companyA,
        leave_type_id: 1,
        start: '2026-12-21T00:00:00.000Z',
        end: '2026-12-24T23:59:59.000Z',
        all_day: true,
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
        updated_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      });
    });

    it('refuses an overlapping leave with 422 AC004 and saves nothing', async () => {
      await call('POST', '/user/leaves', leave(worker, '2027-01-10T00:00:00Z', '2027-01-15T00:00:00Z'));

      const inside = await call(
        'POST',
        '/user/leaves',
        leave(worker, '2027-01-12T00:00:00Z', '2027-01-13T00:00:00Z'),
      );
      const around = await call(
        'POST',
        '/user/leaves',
        leave(worker, '2027-01-01T00:00:00Z', '2027-01-31T00:00:00Z'),
      );
      const other = await call(
        'POST',
        '/user/leaves',
        leave(colleague, '2027-01-12T00:00:00Z', '2027-01-13T00:00:00Z'),
      );

      expect(inside.statusCode).toBe(422);
      expect(inside.json()).toEqual({
        status: 422,
        name: 'PlatformCustomError',
        code: 'AC004',
        message: 'The leave overlaps another leave of the same user',
      });
      expect(around.statusCode).toBe(422);
      expect(other.statusCode).toBe(201);
    });

    it('saves exactly one of several concurrent overlapping leaves', async () => {
      const outcomes = await Promise.all(
        [1, 2, 3, 4].map((day) =>
          call('POST', '/user/leaves', leave(worker, `2027-03-0${day}T00:00:00Z`, '2027-03-08T00:00:00Z')),
        ),
      );

      expect(outcomes.map((outcome) => outcome.statusCode).sort()).toEqual([201, 422, 422, 422]);
    });

    it('saves exactly one of 50 parallel overlapping leaves, and nothing half-written', async () => {
      const outcomes = await Promise.all(
        Array.from({ length: 50 }, (_, index) =>
          call(
            'POST',
            '/user/leaves',
            leave(
              worker,
              `2027-09-${String(1 + (index % 20)).padStart(2, '0')}T00:00:00Z`,
              '2027-09-25T00:00:00Z',
            ),
          ),
        ),
      );

      const statuses = outcomes.map((outcome) => outcome.statusCode);
      expect(statuses.filter((status) => status === 201)).toHaveLength(1);
      expect(statuses.filter((status) => status === 422)).toHaveLength(49);
      const stored = await call('GET', `/user/leaves?user_ids=${worker}&from=2027-09-01&to=2027-09-30`);
      expect(stored.json<unknown[]>()).toHaveLength(1);
    });

    it.each([
      [{ start: '2027-05-02T00:00:00Z', end: '2027-05-01T00:00:00Z' }, 'end'],
      [{ start: '2027-05-01', end: '2027-05-02T00:00:00Z' }, 'start'],
      [{ start: '2027-05-01T00:00:00+02:00', end: '2027-05-02T00:00:00Z' }, 'start'],
      [{ leaveTypeId: 9 }, 'leaveTypeId'],
      [{ userId: 999999 }, 'userId'],
    ])('refuses %p naming %s', async (override, field) => {
      const response = await call('POST', '/user/leaves', {
        ...leave(worker, '2027-05-01T00:00:00Z', '2027-05-02T00:00:00Z'),
        ...override,
      });

      expect(response.statusCode).toBe(400);
      expect(fieldsOf(response)).toContain(field);
    });

    it('lets collaborators create only their own leaves', async () => {
      const own = await call(
        'POST',
        '/user/leaves',
        leave(worker, '2027-06-01T00:00:00Z', '2027-06-02T00:00:00Z'),
        as({ role: 4, user: worker }),
      );
      const someoneElse = await call(
        'POST',
        '/user/leaves',
        leave(colleague, '2027-06-01T00:00:00Z', '2027-06-02T00:00:00Z'),
        as({ role: 4, user: worker }),
      );
      const client = await call(
        'POST',
        '/user/leaves',
        leave(worker, '2027-07-01T00:00:00Z', '2027-07-02T00:00:00Z'),
        as({ role: 6, user: worker }),
      );

      expect(own.statusCode).toBe(201);
      expect(someoneElse.statusCode).toBe(403);
      expect(client.statusCode).toBe(403);
    });

    it('lists the leaves of some users touching a period, not other companies', async () => {
      await call(
        'POST',
        '/user/leaves',
        leave(foreigner, '2027-01-10T00:00:00Z', '2027-01-11T00:00:00Z'),
        as({ company: companyB }),
      );

      const response = await call(
        'GET',
        `/user/leaves?user_ids=${worker},${colleague},${foreigner}&from=2027-01-15&to=2027-01-31`,
      );

      expect(response.statusCode).toBe(200);
      expect(
        response.json<{ user_id: number; start: string }[]>().map((item) => [item.user_id, item.start]),
      ).toEqual([[worker, '2027-01-10T00:00:00.000Z']]);
    });

    it('refuses a malformed period', async () => {
      expect((await call('GET', '/user/leaves?from=2027-01-31&to=2027-01-01')).statusCode).toBe(400);
      expect((await call('GET', '/user/leaves?from=yesterday&to=2027-01-01')).statusCode).toBe(400);
    });
  });
});
