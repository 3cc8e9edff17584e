import { ProvisioningService } from '../src/provisioning/provisioning.service';
import { startMainApiTestApp, type CallOptions, type MainApiTestApp } from './support/main-api-test-app';

interface Leave {
  id: number;
  version: number;
  user_id: number;
  leave_type_id: number;
  start: string;
  end: string;
  all_day: boolean;
  status: string;
  note: string | null;
  decided_by_user_id: number | null;
  decided_at: string | null;
}

interface ErrorBody {
  status: number;
  code: string;
  message: string;
}

/**
 * Time off with a status (issue 38): a collaborator requests, a manager approves, rejects or
 * cancels; only approved leaves count (GET /user/leaves, the planner's look-up); the overlap rule
 * holds among requested and approved leaves, in the database.
 */
describe('main-api leave requests and approval (e2e)', () => {
  let app: MainApiTestApp;
  let company: number;
  let boss: number;
  let manager: number;
  let worker: number;
  let colleague: number;

  beforeAll(async () => {
    app = await startMainApiTestApp(['Leave Co']);
    [{ companyId: company, userId: boss }] = app.companies;
    const provisioning = new ProvisioningService(app.dataSource);
    const person = async (email: string, roleId: number) =>
      (await provisioning.addUser({ companyId: company, email, firstName: 'P', lastName: 'L', roleId }))
        .userId;
    manager = await person('manager@leave-co.test', 3);
    worker = await person('worker@leave-co.test', 4);
    colleague = await person('colleague@leave-co.test', 4);
  });

  afterAll(() => app.close());

  const as = (userId: number, role: number, headers?: Record<string, string>): CallOptions => ({
    company,
    role,
    subject: `user:${userId}`,
    headers,
  });
  const asBoss = (headers?: Record<string, string>) => as(boss, 1, headers);
  const asManager = () => as(manager, 3);
  const asWorker = () => as(worker, 4);

  const request = (body: object, options: CallOptions) => app.call('POST', '/leaves', body, options);
  const created = async (body: object, options: CallOptions): Promise<Leave> => {
    const response = await request(body, options);
    expect(response.statusCode).toBe(201);
    return response.json<Leave>();
  };
  const days = (userId: number, start: string, end: string) => ({
    user_id: userId,
    leave_type_id: 1,
    start,
    end,
    all_day: true,
  });
  const decide = (id: number, action: 'approve' | 'reject' | 'cancel', options: CallOptions, body?: object) =>
    app.call('POST', `/leaves/${id}/${action}`, body, options);
  const counted = async (userId: number, from: string, to: string): Promise<number[]> => {
    const response = await app.call(
      'GET',
      `/user/leaves?user_ids=${userId}&from=${from}&to=${to}`,
      undefined,
      asWorker(),
    );
    expect(response.statusCode).toBe(200);
    return response.json<{ id: number }[]>().map((leave) => leave.id);
  };
  const listed = async (query: string): Promise<Leave[]> => {
    const response = await app.call('GET', `/leaves?page=false&${query}`, undefined, asWorker());
    expect(response.statusCode).toBe(200);
    return response.json<Leave[]>();
  };

  it('lets a collaborator request their own leave: requested, listed, and not counted', async () => {
    const leave = await created(days(worker, '2027-02-01', '2027-02-02'), asWorker());

    expect(leave).toMatchObject({
      user_id: worker,
      start: '2027-02-01T00:00:00.000Z',
      end: '2027-02-02T23:59:59.000Z',
      all_day: true,
      status: 'requested',
      decided_by_user_id: null,
      decided_at: null,
      version: 1,
    });
    expect((await listed(`user_ids=${worker}&status=requested`)).map((item) => item.id)).toContain(leave.id);
    expect(await counted(worker, '2027-02-01', '2027-02-28')).toEqual([]);
  });

  it("refuses a collaborator's leave for someone else, or one they approve themselves (403)", async () => {
    const forColleague = await request(days(colleague, '2027-02-10', '2027-02-11'), asWorker());
    const approved = await request(
      { ...days(worker, '2027-02-10', '2027-02-11'), status: 'approved' },
      asWorker(),
    );

    expect([forColleague.statusCode, forColleague.json<ErrorBody>().code]).toEqual([403, 'AC006']);
    expect([approved.statusCode, approved.json<ErrorBody>().code]).toEqual([403, 'AC006']);
    expect(await listed(`user_ids=${colleague}`)).toEqual([]);
  });

  it("counts an approved leave in GET /user/leaves and in the planner's look-up", async () => {
    const leave = await created(days(worker, '2027-02-15', '2027-02-16'), asWorker());

    expect((await decide(leave.id, 'approve', asWorker())).statusCode).toBe(403);
    const approval = await decide(leave.id, 'approve', asManager());

    expect(approval.statusCode).toBe(200);
    expect(approval.json<Leave>()).toMatchObject({
      status: 'approved',
      decided_by_user_id: manager,
      version: 2,
    });
    expect(approval.json<Leave>().decided_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(await counted(worker, '2027-02-01', '2027-02-28')).toEqual([leave.id]);
    const lookups = await app.call(
      'GET',
      `/planner/lookups?user_ids=${worker}&from=2027-02-01&to=2027-02-28`,
      undefined,
      asBoss(),
    );
    expect(lookups.statusCode).toBe(200);
    expect(lookups.json<{ leaves: { id: number }[] }>().leaves.map((item) => item.id)).toEqual([leave.id]);
  });

  it('refuses to approve or reject a leave twice (409 LeaveNotRequested)', async () => {
    const leave = await created(days(worker, '2027-02-20', '2027-02-20'), asWorker());
    expect((await decide(leave.id, 'approve', asManager())).statusCode).toBe(200);

    const again = await decide(leave.id, 'approve', asBoss());
    const reject = await decide(leave.id, 'reject', asBoss());

    expect(again.statusCode).toBe(409);
    expect(again.json<ErrorBody>()).toMatchObject({ code: 'AC004' });
    expect(again.json<ErrorBody>().message).toMatch(/^LeaveNotRequested: leave \d+ is approved/);
    expect(reject.statusCode).toBe(409);
    expect(reject.json<ErrorBody>().message).toMatch(/^LeaveNotRequested/);
    expect((await decide(999_999, 'approve', asBoss())).statusCode).toBe(404);
  });

  it('rejects a request: not counted, and its days are free for a new leave', async () => {
    const leave = await created(days(worker, '2027-03-01', '2027-03-05'), asWorker());

    const rejection = await decide(leave.id, 'reject', asManager(), { note: 'Launch week' });

    expect(rejection.statusCode).toBe(200);
    expect(rejection.json<Leave>()).toMatchObject({
      status: 'rejected',
      note: 'Launch week',
      decided_by_user_id: manager,
    });
    expect(await counted(worker, '2027-03-01', '2027-03-31')).toEqual([]);
    const again = await created(days(worker, '2027-03-01', '2027-03-05'), asWorker());
    expect(again.status).toBe('requested');
    expect(
      (await listed(`user_ids=${worker}&from=2027-03-01&to=2027-03-31`)).map((item) => item.status),
    ).toEqual(expect.arrayContaining(['rejected', 'requested']));
  });

  it('cancels a leave by the person themself or a manager, never twice nor by a colleague', async () => {
    const leave = await created(days(worker, '2027-03-15', '2027-03-16'), asBoss());
    expect(leave).toMatchObject({ status: 'approved', decided_by_user_id: boss });
    expect(await counted(worker, '2027-03-15', '2027-03-16')).toEqual([leave.id]);

    const byColleague = await decide(leave.id, 'cancel', as(colleague, 4));
    const byWorker = await decide(leave.id, 'cancel', asWorker());
    const twice = await decide(leave.id, 'cancel', asBoss());

    expect(byColleague.statusCode).toBe(403);
    expect(byWorker.statusCode).toBe(200);
    expect(byWorker.json<Leave>()).toMatchObject({ status: 'cancelled', decided_by_user_id: worker });
    expect(await counted(worker, '2027-03-15', '2027-03-16')).toEqual([]);
    expect(twice.statusCode).toBe(409);
    expect(twice.json<ErrorBody>().message).toMatch(/^LeaveNotOpen: leave \d+ is cancelled/);
    // Its days are free again.
    expect((await created(days(worker, '2027-03-16', '2027-03-16'), asBoss())).status).toBe('approved');
  });

  it('refuses a leave overlapping a requested one with 422 AC004, on both routes', async () => {
    await created(days(worker, '2027-04-05', '2027-04-09'), asWorker());

    const v1 = await request(days(worker, '2027-04-07', '2027-04-07'), asBoss());
    const interfaceRoute = await app.call(
      'POST',
      '/user/leaves',
      {
        userId: worker,
        leaveTypeId: 1,
        start: '2027-04-08T09:00:00Z',
        end: '2027-04-08T12:00:00Z',
      },
      asBoss(),
    );

    for (const response of [v1, interfaceRoute]) {
      expect(response.statusCode).toBe(422);
      expect(response.json<ErrorBody>()).toMatchObject({
        code: 'AC004',
        message: 'The leave overlaps another leave of the same user',
      });
    }
    // The next day's all-day leave does not touch it.
    expect((await request(days(worker, '2027-04-10', '2027-04-10'), asBoss())).statusCode).toBe(201);
  });

  it("reads local date-times in the person's time zone, daylight saving included", async () => {
    const zone = await app.call(
      'PUT',
      `/users/${colleague}/time-zone`,
      { time_zone: 'America/New_York' },
      asBoss(),
    );
    expect(zone.statusCode).toBe(200);
    const partial = (start: string, end: string) => ({ user_id: colleague, leave_type_id: 3, start, end });

    const winter = await created(partial('2027-01-18T13:00', '2027-01-18T17:00'), asBoss());
    const summer = await created(partial('2027-07-19T13:00:00', '2027-07-19T17:00:00'), asBoss());
    const withOffset = await created(partial('2027-01-19T13:00-05:00', '2027-01-19T19:30:00Z'), asBoss());

    expect([winter.start, winter.end]).toEqual(['2027-01-18T18:00:00.000Z', '2027-01-18T22:00:00.000Z']);
    expect([summer.start, summer.end]).toEqual(['2027-07-19T17:00:00.000Z', '2027-07-19T21:00:00.000Z']);
    expect([withOffset.start, withOffset.end]).toEqual([
      '2027-01-19T18:00:00.000Z',
      '2027-01-19T19:30:00.000Z',
    ]);
  });

  it('refuses a plain date without all_day, an impossible time and an end before its start (400)', async () => {
    const cases: [object, string][] = [
      [{ ...days(worker, '2027-06-01', '2027-06-02'), all_day: false }, 'start'],
      [days(worker, '2027-06-01T25:00', '2027-06-02'), 'start'],
      [days(worker, '2027-06-03', '2027-06-02'), 'end'],
      [days(worker, '2027-06-01', 'next week'), 'end'],
    ];
    for (const [body, field] of cases) {
      const response = await request(body, asBoss());
      expect([
        response.statusCode,
        response.json<{ errors: { field: string }[] }>().errors[0]?.field,
      ]).toEqual([400, field]);
    }
  });

  it('takes If-Match on a decision: a stale version is a 412 showing the leave as it is', async () => {
    const leave = await created(days(worker, '2027-05-20', '2027-05-21'), asWorker());
    const read = await app.call('GET', `/leaves/${leave.id}`, undefined, asWorker());
    const etag = read.headers.etag as string;
    expect(etag).toMatch(/^"1-/);

    const stale = await decide(leave.id, 'approve', asBoss({ 'if-match': '"7-stale"' }));
    const current = await decide(leave.id, 'approve', asBoss({ 'if-match': etag }));

    expect(stale.statusCode).toBe(412);
    expect(stale.json<{ current: Leave }>().current).toMatchObject({ id: leave.id, status: 'requested' });
    expect(current.statusCode).toBe(200);
    expect(current.json<Leave>().version).toBe(2);
  });

  it("makes the interface's POST a request when the company requires approval and a person writes their own", async () => {
    expect(
      (await app.call('PUT', '/leave-policy', { approval_required: true }, asManager())).statusCode,
    ).toBe(403);
    const policy = await app.call('PUT', '/leave-policy', { approval_required: true }, asBoss());
    expect([policy.statusCode, policy.json()]).toEqual([200, { approval_required: true }]);
    expect((await app.call('GET', '/leave-policy', undefined, asWorker())).json()).toEqual({
      approval_required: true,
    });
    try {
      const own = await app.call(
        'POST',
        '/user/leaves',
        {
          userId: worker,
          leaveTypeId: 1,
          start: '2027-05-03T00:00:00Z',
          end: '2027-05-04T23:59:59Z',
          allDay: true,
        },
        asWorker(),
      );
      const byManager = await app.call(
        'POST',
        '/user/leaves',
        {
          userId: worker,
          leaveTypeId: 1,
          start: '2027-05-06T00:00:00Z',
          end: '2027-05-06T23:59:59Z',
          allDay: true,
        },
        asManager(),
      );

      expect([own.statusCode, byManager.statusCode]).toEqual([201, 201]);
      // The interface's answer, exactly: no status in it.
      expect(Object.keys(own.json<object>()).sort()).toEqual(
        [
          'all_day',
          'company_id',
          'created_at',
          'end',
          'id',
          'leave_type_id',
          'start',
          'updated_at',
          'user_id',
        ].sort(),
      );
      const ownId = own.json<{ id: number }>().id;
      const managersId = byManager.json<{ id: number }>().id;
      expect(
        (await listed(`user_ids=${worker}&from=2027-05-01&to=2027-05-07`)).map((item) => [
          item.id,
          item.status,
        ]),
      ).toEqual([
        [ownId, 'requested'],
        [managersId, 'approved'],
      ]);
      expect(await counted(worker, '2027-05-01', '2027-05-07')).toEqual([managersId]);
    } finally {
      await app.call('PUT', '/leave-policy', { approval_required: false }, asBoss());
    }
  });

  it('saves exactly one of two concurrent overlapping leaves: one 201, one 422', async () => {
    for (const month of ['08', '09', '10', '11', '12']) {
      const [first, second] = await Promise.all([
        request(days(colleague, `2027-${month}-01`, `2027-${month}-05`), asBoss()),
        request(
          { ...days(colleague, `2027-${month}-04`, `2027-${month}-08`), status: 'requested' },
          asBoss(),
        ),
      ]);

      expect([first.statusCode, second.statusCode].sort()).toEqual([201, 422]);
    }
    expect(await listed(`user_ids=${colleague}&from=2027-08-01&to=2027-12-31`)).toHaveLength(5);
  });

  it('lists leaves with the list conventions: cursor pages, filters and sort by start', async () => {
    const first = await app.call(
      'GET',
      `/leaves?limit=2&sort=start&user_ids=${worker}`,
      undefined,
      asWorker(),
    );
    expect(first.statusCode).toBe(200);
    const page = first.json<{ data: Leave[]; next_cursor: string | null; has_more: boolean }>();
    expect(page.data).toHaveLength(2);
    expect(page.has_more).toBe(true);
    expect(page.data.map((item) => item.start)).toEqual(page.data.map((item) => item.start).sort());
    const filters = encodeURIComponent(
      JSON.stringify({ status: ['rejected', 'cancelled'], user_id: worker }),
    );
    const closed = await listed(`filters=${filters}`);
    expect(closed.map((item) => item.status).sort()).toEqual(['cancelled', 'rejected']);
    expect(
      (await app.call('GET', '/leaves?from=2027-02-01&to=2027-01-01', undefined, asWorker())).statusCode,
    ).toBe(400);
  });

  it('records a decision as an updated event of the leave in the change feed', async () => {
    const leave = await created(days(colleague, '2028-01-10', '2028-01-11'), asBoss());
    expect(leave.status).toBe('approved');
    expect((await decide(leave.id, 'cancel', asBoss())).statusCode).toBe(200);

    const events = await app.call('GET', '/events?after=0&limit=1000', undefined, asBoss());
    const ofLeave = events
      .json<{ data: { entity: string; id: number; kind: string; changed_fields: string[] }[] }>()
      .data.filter((event) => event.entity === 'user-leaves' && event.id === leave.id);
    expect(ofLeave.map((event) => event.kind)).toEqual(['created', 'updated']);
    expect(ofLeave.at(-1)?.changed_fields).toEqual(expect.arrayContaining(['status', 'decided_at']));
  });
});
