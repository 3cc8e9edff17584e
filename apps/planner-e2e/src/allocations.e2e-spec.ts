import { RetentionPruner } from '@platform/database';
import { MainApiClient } from '@platform/main-api-client';
import { signTestToken, startTestService, type TestService } from '@platform/testing';
import type { LightMyRequestResponse } from 'fastify';
import { DataSource } from 'typeorm';
// The issue asks for a real main-api behind the planner in these tests: they start main-api in
// process through main-api's own test harness. They live in planner-e2e, the one project allowed to
// depend on both apps, so the planner app itself never depends on main-api.
import { startMainApiTestApp, type MainApiTestApp } from '../../main-api/test/support/main-api-test-app';
import { PlannerEnv } from '../../planner/src/config/planner.env';
import { plannerOwnerDataSourceOptions } from '../../planner/src/database/planner.data-source';
import { plannerService } from '../../planner/src/planner.service';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

interface AllocationBody {
  userId: number;
  companyId: number;
  email?: string;
  resource: { typeId: string; entityId: number };
  from: string;
  to: string;
  assignedByUserId: number;
  allocatedHours: number;
}

interface AllocationsResponse {
  users: {
    userId: number;
    allocations: {
      primaryKey: string;
      from: string;
      to: string;
      allocatedHours: number;
      capacity: number;
      availabilityLeft: number;
      allocationUserAnotherProjects: { projectId: number; allocatedHours: number }[];
    }[];
    totalAllocatedHours: number;
  }[];
}

const FULL_WEEK = [1, 2, 3, 4, 5].map((day) => ({
  day_of_week: day,
  daily_hours: 8,
  start_at: '09:00:00',
  end_at: '17:00:00',
}));
// Monday, Tuesday and Wednesday mornings.
const PART_TIME_WEEK = [1, 2, 3].map((day) => ({
  day_of_week: day,
  daily_hours: 4,
  start_at: '09:00:00',
  end_at: '13:00:00',
}));

// 2026-01-05 is a Monday.
const MAIN_API_TIMEOUT_MS = 5000;

describe('planner allocations, with main-api behind it (e2e)', () => {
  let main: MainApiTestApp;
  let planner: TestService<PlannerEnv>;
  let acme: number;
  let globex: number;
  let boss: number;
  let client: number;
  let website: number;
  let campaign: number;
  let retainer: number;
  let globexProject: number;
  let mainApiStopped = false;

  const created = async (response: Promise<LightMyRequestResponse>): Promise<number> => {
    const answer = await response;
    expect(answer.statusCode).toBe(201);
    return answer.json<{ id: number }>().id;
  };

  /** As the boss (a C-Level user) unless told otherwise; `token` is a token main-api issued. */
  interface CallAs {
    company?: number;
    role?: number;
    subject?: string;
    token?: string;
  }
  const call = (
    method: Method,
    url: string,
    body?: object,
    options: CallAs = {},
  ): Promise<LightMyRequestResponse> =>
    planner.app.inject({
      method,
      url,
      headers: {
        authorization: `Bearer ${
          options.token ??
          signTestToken({
            keys: main.keys,
            companyId: options.company ?? acme,
            roleId: options.role ?? 1,
            subject: options.subject ?? `user:${boss}`,
          })
        }`,
      },
      ...(body ? { payload: body } : {}),
    });
  /** The API client provisioned with Acme, through client credentials: a token without a user. */
  let apiClient: CallAs;

  let emailCounter = 0;
  const newUser = async (
    week: object[] | undefined,
    extra: object = {},
    company: number = acme,
  ): Promise<number> => {
    emailCounter += 1;
    const id = await created(
      main.call(
        'POST',
        '/users',
        {
          first_name: `User${emailCounter}`,
          last_name: 'Planned',
          email: `user${emailCounter}@planner.test`,
          role_id: 4,
          ...extra,
        },
        { company },
      ),
    );
    if (week) {
      const answer = await main.call('PUT', `/working-time/users/${id}`, { entries: week }, { company });
      expect(answer.statusCode).toBe(200);
    }
    return id;
  };

  const allocation = (userId: number, projectId: number, overrides: Partial<AllocationBody> = {}) => ({
    userId,
    companyId: acme,
    resource: { typeId: 'Project', entityId: projectId },
    from: '2026-01-05',
    to: '2026-01-09',
    assignedByUserId: boss,
    allocatedHours: 20,
    ...overrides,
  });

  const save = (body: object, options?: CallAs) => call('POST', '/allocation/saveAllocation', body, options);
  const update = (oldAllocation: object, newAllocation: object, options?: CallAs) =>
    call('PUT', '/allocation/updateAllocation', { oldAllocation, newAllocation }, options);
  const remove = (body: object) => call('DELETE', '/allocation/removeAllocation', body);
  const allocationsOf = async (projectId: number) => {
    const response = await call('GET', `/allocation/getAllocations/${projectId}`);
    expect(response.statusCode).toBe(200);
    return response.json<AllocationsResponse>();
  };
  const expectError = (response: LightMyRequestResponse, error: string, status = 400) => {
    expect({ status: response.statusCode, error: response.json<{ error: string }>().error }).toEqual({
      status,
      error,
    });
    expect(response.json<{ message: string }>().message.length).toBeGreaterThan(10);
  };

  beforeAll(async () => {
    main = await startMainApiTestApp(['Acme', 'Globex']);
    const mainApiUrl = await main.listen();
    planner = await startTestService({
      definition: plannerService,
      envClass: PlannerEnv,
      dataSourceOptions: plannerOwnerDataSourceOptions,
      env: {
        MAIN_API_URL: mainApiUrl,
        // Generous: 50 concurrent saves make 150 main-api calls while CI runs every suite at once.
        MAIN_API_TIMEOUT_MS: String(MAIN_API_TIMEOUT_MS),
        MAIN_API_BREAKER_THRESHOLD: '1000',
      },
    });
    [acme, globex] = main.companies.map((company) => company.companyId) as [number, number];
    boss = main.companies[0].userId;
    const issued = await main.service.app.inject({
      method: 'POST',
      url: '/v1/oauth/token?grant_type=client_credentials',
      headers: {
        authorization: `Basic ${Buffer.from(`${main.companies[0].apiKey}:${main.companies[0].clientSecret}`).toString('base64')}`,
      },
    });
    expect(issued.statusCode).toBe(200);
    apiClient = { token: issued.json<{ access_token: string }>().access_token };
    client = await created(main.call('POST', '/clients', { name: 'Acme Foods' }));
    website = await created(main.call('POST', '/projects', { name: 'Website', client_id: client }));
    campaign = await created(main.call('POST', '/projects', { name: 'Campaign', client_id: client }));
    retainer = await created(main.call('POST', '/projects', { name: 'Retainer', client_id: client }));
    const globexClient = await created(main.call('POST', '/clients', { name: 'G' }, { company: globex }));
    globexProject = await created(
      main.call('POST', '/projects', { name: 'Globex site', client_id: globexClient }, { company: globex }),
    );
  });

  afterAll(async () => {
    await planner?.close();
    if (!mainApiStopped) {
      await main?.close();
    }
  });

  describe('save (rules 1-3)', () => {
    let worker: number;

    beforeAll(async () => {
      worker = await newUser(FULL_WEEK);
    });

    it('saves and answers 200 without a body', async () => {
      const response = await save(allocation(worker, website, { email: 'someone@acme.test' }));

      expect(response.statusCode).toBe(200);
      expect(response.body).toBe('');
    });

    it.each([
      ['no allocatedHours', { allocatedHours: undefined }, 'allocatedHours'],
      ['allocatedHours null', { allocatedHours: null }, 'allocatedHours'],
      ['allocatedHours empty', { allocatedHours: '' }, 'allocatedHours'],
      ['allocatedHours as a string', { allocatedHours: '8' }, 'allocatedHours'],
      ['allocatedHours 0', { allocatedHours: 0 }, 'allocatedHours'],
      ['allocatedHours negative', { allocatedHours: -4 }, 'allocatedHours'],
      ['allocatedHours with three decimals', { allocatedHours: 1.125 }, 'allocatedHours'],
      ['from equal to to', { from: '2026-02-02', to: '2026-02-02' }, 'must be before to'],
      ['from after to', { from: '2026-02-06', to: '2026-02-02' }, 'must be before to'],
      ['more than 12 months', { from: '2026-02-02', to: '2027-02-03' }, 'at most 12 months'],
      ['a date that does not exist', { from: '2026-02-30', to: '2026-03-05' }, '2026-02-30'],
      ['a date with a time', { from: '2026-02-02T00:00:00', to: '2026-03-05' }, 'YYYY-MM-DD'],
      ['another resource type', { resource: { typeId: 'Task', entityId: 1 } }, 'typeId must be Project'],
      ['no resource', { resource: undefined }, 'resource is required'],
      ['a resource that is not an object', { resource: 'Project' }, 'resource must be an object'],
      ['no assignedByUserId', { assignedByUserId: undefined }, 'assignedByUserId'],
      ['a userId that is not an integer', { userId: 1.5 }, 'userId'],
      ['an email that is not one', { email: 'nope' }, 'email'],
    ])('refuses %s with InvalidAllocationError', async (_case, overrides, field) => {
      const response = await save({ ...allocation(worker, campaign), ...overrides });

      expectError(response, 'InvalidAllocationError');
      expect(response.json<{ message: string }>().message).toContain(field);
    });

    it('accepts a range of exactly 12 calendar months', async () => {
      const response = await save(allocation(worker, retainer, { from: '2027-01-04', to: '2028-01-04' }));

      expect(response.statusCode).toBe(200);
    });

    it('refuses an allocation sharing a day with one of the same user on the same project', async () => {
      await save(allocation(worker, campaign, { from: '2026-03-02', to: '2026-03-06' }));

      const sameLastDay = await save(allocation(worker, campaign, { from: '2026-03-06', to: '2026-03-13' }));
      const inside = await save(allocation(worker, campaign, { from: '2026-03-03', to: '2026-03-04' }));

      expectError(sameLastDay, 'AllocationAlreadyExistInDatesRangeError');
      expect(sameLastDay.json<{ message: string }>().message).toContain('from 2026-03-02 to 2026-03-06');
      expectError(inside, 'AllocationAlreadyExistInDatesRangeError');
    });

    it('allows the next day, and the same days on another project', async () => {
      expect(
        (await save(allocation(worker, campaign, { from: '2026-03-07', to: '2026-03-13' }))).statusCode,
      ).toBe(200);
      expect(
        (await save(allocation(worker, retainer, { from: '2026-03-02', to: '2026-03-06' }))).statusCode,
      ).toBe(200);
    });

    it("refuses an unknown user, another company's user and a deleted user with UserNotFoundError", async () => {
      const outsider = await newUser(FULL_WEEK, {}, globex);
      const leaver = await newUser(FULL_WEEK);
      expect((await main.call('DELETE', `/users/${leaver}`)).statusCode).toBe(200);

      for (const userId of [999_999, outsider, leaver]) {
        expectError(await save(allocation(userId, campaign)), 'UserNotFoundError');
      }
      // A user's token records its own user (see assignedByUserId below); an API client names one.
      const unknownAssigner = await save(
        allocation(worker, campaign, { assignedByUserId: 999_999 }),
        apiClient,
      );
      expectError(unknownAssigner, 'UserNotFoundError');
      expect(unknownAssigner.json<{ message: string }>().message).toContain('assignedByUserId');
    });

    it("refuses an unknown project and another company's project with ProjectNotFoundError", async () => {
      expectError(await save(allocation(worker, 999_999)), 'ProjectNotFoundError');
      expectError(await save(allocation(worker, globexProject)), 'ProjectNotFoundError');
    });

    it('refuses a user without working time, or without a working day in the range', async () => {
      const noWeek = await newUser(undefined);
      const zeroHours = await newUser([{ ...FULL_WEEK[0], daily_hours: 0 }]);

      expectError(await save(allocation(noWeek, campaign)), 'UserNotHaveWorkDaysError');
      expectError(await save(allocation(zeroHours, campaign)), 'UserNotHaveWorkDaysError');
      const weekend = await save(allocation(worker, website, { from: '2026-01-10', to: '2026-01-11' }));
      expectError(weekend, 'UserNotHaveWorkDaysError');
    });

    it('checks in order: the body, then existence, then work days', async () => {
      const noWeek = await newUser(undefined);

      expectError(await save(allocation(999_999, 999_999, { allocatedHours: 0 })), 'InvalidAllocationError');
      expectError(await save(allocation(999_999, 999_999)), 'UserNotFoundError');
      expectError(await save(allocation(noWeek, 999_999)), 'ProjectNotFoundError');
    });

    it('lets exactly one of 50 concurrent identical saves through', async () => {
      const racer = await newUser(FULL_WEEK);
      const body = allocation(racer, campaign, { from: '2026-06-01', to: '2026-06-12' });

      const responses = await Promise.all(Array.from({ length: 50 }, () => save(body)));

      const statuses = responses.map((response) => response.statusCode);
      expect(statuses.filter((status) => status === 200)).toHaveLength(1);
      const refusals = responses.filter((response) => response.statusCode !== 200);
      expect(refusals).toHaveLength(49);
      for (const refusal of refusals) {
        expectError(refusal, 'AllocationAlreadyExistInDatesRangeError');
      }
      const [user] = (await allocationsOf(campaign)).users.filter((entry) => entry.userId === racer);
      expect(user?.allocations).toHaveLength(1);
    });
  });

  describe('update (rules 4 and 5)', () => {
    let worker: number;
    const first = () => allocation(worker, website, { from: '2026-04-06', to: '2026-04-10' });
    const second = () => allocation(worker, website, { from: '2026-04-20', to: '2026-04-24' });

    beforeAll(async () => {
      worker = await newUser(FULL_WEEK);
      expect((await save(first())).statusCode).toBe(200);
      expect((await save(second())).statusCode).toBe(200);
    });

    const keysOf = async (projectId: number) =>
      (await allocationsOf(projectId)).users
        .filter((user) => user.userId === worker)
        .flatMap((user) =>
          user.allocations.map((entry) => `${entry.primaryKey} ${entry.from} ${entry.allocatedHours}`),
        );

    it('changes the allocation in place: same primaryKey, new range and hours; it never overlaps itself', async () => {
      const [before] = await keysOf(website);
      const grown = allocation(worker, website, { from: '2026-04-06', to: '2026-04-14', allocatedHours: 30 });

      const response = await update(first(), grown);

      expect(response.statusCode).toBe(200);
      expect(response.body).toBe('');
      const after = await keysOf(website);
      expect(after).toHaveLength(2);
      expect(after[0]).toBe(`${before.split(' ')[0]} 2026-04-06T00:00:00 30`);
      expect((await update(grown, first())).statusCode).toBe(200);
    });

    it('refuses an unknown oldAllocation with AllocationNotFoundError', async () => {
      const unknown = allocation(worker, website, { from: '2026-04-07', to: '2026-04-10' });

      expectError(await update(unknown, unknown), 'AllocationNotFoundError');
      expectError(
        await update(allocation(worker, campaign, { from: '2026-04-06', to: '2026-04-10' }), first()),
        'AllocationNotFoundError',
      );
    });

    it('applies the rules of save to newAllocation', async () => {
      const noWeek = await newUser(undefined);

      expectError(await update(first(), { ...first(), allocatedHours: 0 }), 'InvalidAllocationError');
      expectError(await update(first(), { ...first(), to: '2027-06-01' }), 'InvalidAllocationError');
      expectError(await update(first(), { ...first(), userId: 999_999 }), 'UserNotFoundError');
      expectError(
        await update(first(), { ...first(), resource: { typeId: 'Project', entityId: globexProject } }),
        'ProjectNotFoundError',
      );
      expectError(await update(first(), { ...first(), userId: noWeek }), 'UserNotHaveWorkDaysError');
      expectError(
        await update(first(), { ...first(), from: '2026-04-11', to: '2026-04-12' }),
        'UserNotHaveWorkDaysError',
      );
      const overlappingSecond = { ...first(), to: '2026-04-20' };
      expectError(await update(first(), overlappingSecond), 'AllocationAlreadyExistInDatesRangeError');
      expectError(await update({ ...first(), from: 'x' }, first()), 'InvalidAllocationError');
      expect(await keysOf(website)).toHaveLength(2);
    });

    it('moves an allocation to another project where the user is free on those days', async () => {
      const [key] = (await keysOf(website))[1].split(' ');
      const moved = { ...second(), resource: { typeId: 'Project', entityId: retainer } };

      expect((await update(second(), moved)).statusCode).toBe(200);

      expect(await keysOf(website)).toHaveLength(1);
      expect((await keysOf(retainer)).some((entry) => entry.startsWith(`${key} 2026-04-20`))).toBe(true);
      expect((await update(moved, second())).statusCode).toBe(200);
    });

    it('refuses to move it onto a project where the user has an allocation on one of the days', async () => {
      expect(
        (await save(allocation(worker, campaign, { from: '2026-04-24', to: '2026-04-30' }))).statusCode,
      ).toBe(200);

      const onto = { ...second(), resource: { typeId: 'Project', entityId: campaign } };

      expectError(await update(second(), onto), 'AllocationAlreadyExistInDatesRangeError');
      expect(await keysOf(website)).toHaveLength(2);
    });
  });

  describe('remove (rule 6)', () => {
    let worker: number;

    beforeAll(async () => {
      worker = await newUser(FULL_WEEK);
    });

    it('removes the allocation with the user, project and days of the body; 200 without a body', async () => {
      const body = allocation(worker, retainer, { from: '2026-05-04', to: '2026-05-08' });
      await save(body);

      const response = await remove({ ...body, allocatedHours: 1 });

      expect(response.statusCode).toBe(200);
      expect(response.body).toBe('');
      expect((await allocationsOf(retainer)).users.some((user) => user.userId === worker)).toBe(false);
      expectError(await remove(body), 'AllocationNotFoundError');
    });

    it("answers ProjectNotFoundError for an unknown or another company's project", async () => {
      expectError(await remove(allocation(worker, 999_999)), 'ProjectNotFoundError');
      expectError(await remove(allocation(worker, globexProject)), 'ProjectNotFoundError');
    });

    it('requires every value except email', async () => {
      const { assignedByUserId: _assigner, ...withoutAssigner } = allocation(worker, retainer);

      expectError(await remove(withoutAssigner), 'InvalidAllocationError');
      expectError(
        await remove({ ...allocation(worker, retainer), allocatedHours: undefined }),
        'InvalidAllocationError',
      );
    });

    describe('with the standard headers of every request (issue 33)', () => {
      const withJsonHeaders = (payload?: string) =>
        planner.app.inject({
          method: 'DELETE',
          url: '/allocation/removeAllocation',
          headers: {
            authorization: `Bearer ${signTestToken({ keys: main.keys, companyId: acme, roleId: 1, subject: `user:${boss}` })}`,
            'content-type': 'application/json',
            accept: 'application/json',
          },
          ...(payload === undefined ? {} : { payload }),
        });

      it('answers a DELETE without a body as a body missing its values, not "Body cannot be empty"', async () => {
        const withoutBody = await withJsonHeaders();
        const emptyObject = await remove({});

        expectError(withoutBody, 'InvalidAllocationError');
        expect(withoutBody.json()).toEqual(emptyObject.json());
        expect(withoutBody.json<{ message: string }>().message).not.toMatch(/empty/i);
      });

      it('still refuses a non-empty malformed JSON body with 400 in its own error body', async () => {
        const response = await withJsonHeaders('{"userId": ');

        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({
          error: 'InvalidAllocationError',
          message: expect.stringContaining('JSON'),
        });
      });
    });
  });

  describe('getAllocations (rule 7, capacity and availability)', () => {
    let project: number;
    let other: number;
    let partTimer: number;
    let fullTimer: number;
    let label: number;
    let position: number;
    let category: number;

    beforeAll(async () => {
      project = await created(main.call('POST', '/projects', { name: 'Brand book', client_id: client }));
      other = await created(main.call('POST', '/projects', { name: 'Ads', client_id: client }));
      category = await created(main.call('POST', '/position-categories', { name: 'Creative' }));
      position = await created(main.call('POST', '/positions', { name: 'Designer', category_id: category }));
      label = await created(
        main.call('POST', '/labels', { name: 'Senior', color: '#112233', model: 'user' }),
      );
      partTimer = await newUser(PART_TIME_WEEK, {
        first_name: 'Ada',
        last_name: 'Part',
        user_position_id: position,
        labels: [label],
        picture: 'https://cdn.example/ada.png',
      });
      fullTimer = await newUser(FULL_WEEK, { first_name: 'Bob', last_name: 'Full', hidden: true });
      // Part-timer: an all-day leave on Tuesday 13 January.
      const leave = await main.call('POST', '/user/leaves', {
        userId: partTimer,
        leaveTypeId: 1,
        start: '2026-01-13T00:00:00Z',
        end: '2026-01-13T23:59:59Z',
        allDay: true,
      });
      expect(leave.statusCode).toBe(201);
      for (const body of [
        allocation(partTimer, project, { from: '2026-01-07', to: '2026-01-20', allocatedHours: 16 }),
        allocation(partTimer, project, { from: '2026-02-02', to: '2026-02-06', allocatedHours: 2.5 }),
        // The part-timer works 6 days of Mon 5 - Fri 16: Mon, Tue and Wed of both weeks.
        allocation(partTimer, other, { from: '2026-01-05', to: '2026-01-16', allocatedHours: 18 }),
        allocation(fullTimer, project, { from: '2026-01-05', to: '2026-01-09', allocatedHours: 30 }),
        allocation(fullTimer, other, { from: '2026-01-05', to: '2026-01-09', allocatedHours: 20 }),
        // Not overlapping the full-timer's allocation on the project: not listed.
        allocation(fullTimer, retainer, { from: '2026-01-12', to: '2026-01-16', allocatedHours: 5 }),
      ]) {
        expect((await save(body)).statusCode).toBe(200);
      }
    });

    it('answers every field of docs/spec/interfaces.md with its type and format', async () => {
      const response = await call('GET', `/allocation/getAllocations/${project}`);

      expect(response.statusCode).toBe(200);
      const body = response.json<AllocationsResponse>();
      const createdAt = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/) as unknown as string;
      const primaryKey = expect.stringMatching(/^[0-9a-f-]{36}$/) as unknown as string;
      expect(body).toEqual({
        users: [
          {
            userId: partTimer,
            firstName: 'Ada',
            lastName: 'Part',
            positionName: 'Designer',
            categoryName: 'Creative',
            categoryId: String(category),
            userPositionId: String(position),
            picture: 'https://cdn.example/ada.png',
            companyId: acme,
            hidden: false,
            isDeleted: false,
            labelsByCategory: [
              { category: 'user', labels: [{ id: label, name: 'Senior', color: '#112233' }] },
            ],
            createdAt,
            totalAllocatedHours: 18.5,
            allocations: [
              {
                primaryKey,
                from: '2026-01-07T00:00:00',
                to: '2026-01-20T00:00:00',
                allocatedHours: 16,
                // Working mornings: Wed 7, Mon 12, Tue 13 (on leave), Wed 14, Mon 19, Tue 20.
                capacity: 20,
                // The other project's 18 hours over its 6 working days, 4 of them (Wed 7, Mon 12,
                // Tue 13, Wed 14) inside this range: 18 × 4/6 = 12.
                availabilityLeft: 20 - 16 - 12,
                createdAt,
                allocationUserAnotherProjects: [
                  { projectId: other, projectName: 'Ads', clientName: 'Acme Foods', allocatedHours: 12 },
                ],
              },
              {
                primaryKey,
                from: '2026-02-02T00:00:00',
                to: '2026-02-06T00:00:00',
                allocatedHours: 2.5,
                capacity: 12,
                availabilityLeft: 9.5,
                createdAt,
                allocationUserAnotherProjects: [],
              },
            ],
          },
          {
            userId: fullTimer,
            firstName: 'Bob',
            lastName: 'Full',
            positionName: '',
            categoryName: '',
            categoryId: '',
            userPositionId: '',
            picture: '',
            companyId: acme,
            hidden: true,
            isDeleted: false,
            labelsByCategory: [],
            createdAt,
            totalAllocatedHours: 30,
            allocations: [
              {
                primaryKey,
                from: '2026-01-05T00:00:00',
                to: '2026-01-09T00:00:00',
                allocatedHours: 30,
                capacity: 40,
                // Over-allocated: 40 − 30 − 20.
                availabilityLeft: -10,
                createdAt,
                allocationUserAnotherProjects: [
                  { projectId: other, projectName: 'Ads', clientName: 'Acme Foods', allocatedHours: 20 },
                ],
              },
            ],
          },
        ],
      });
    });

    it('reports the allocations of the other project from its side too', async () => {
      const { users } = await allocationsOf(other);

      const partTime = users.find((user) => user.userId === partTimer);
      // Its range (Mon 5 - Fri 16) overlaps only the first Brand book allocation (16 h over Wed 7 -
      // Tue 20: 6 working days, 4 of them inside), so 16 × 4/6.
      expect(partTime?.allocations[0]?.allocationUserAnotherProjects).toEqual([
        expect.objectContaining({ projectId: project, allocatedHours: 10.67 }),
      ]);
      // Capacity Mon 5 - Fri 16 mornings: 6 days × 4 h minus the leave on Tue 13 = 20.
      expect(partTime?.allocations[0]?.capacity).toBe(20);
    });

    it('makes a bounded number of main-api calls whatever the number of users', async () => {
      for (let i = 0; i < 6; i += 1) {
        const extra = await newUser(FULL_WEEK);
        await save(allocation(extra, project, { from: '2026-03-02', to: '2026-03-06' }));
        await save(allocation(extra, other, { from: '2026-03-02', to: '2026-03-06' }));
      }
      const client = planner.app.get(MainApiClient);
      const request = jest.spyOn(client, 'request');

      const { users } = await allocationsOf(project);

      expect(users).toHaveLength(8);
      // projects, users, working weeks, leaves, labels: one call for all of them.
      expect(request.mock.calls.map(([call]) => call.path)).toEqual(['/v1/planner/lookups']);
      request.mockRestore();
    });

    it('answers {users: []} for a project without allocations', async () => {
      const empty = await created(main.call('POST', '/projects', { name: 'Empty', client_id: client }));

      expect(await allocationsOf(empty)).toEqual({ users: [] });
    });

    it("answers 404 ProjectNotFoundError for an unknown or another company's project", async () => {
      expectError(await call('GET', '/allocation/getAllocations/999999'), 'ProjectNotFoundError', 404);
      expectError(
        await call('GET', `/allocation/getAllocations/${globexProject}`),
        'ProjectNotFoundError',
        404,
      );
      expectError(
        await call('GET', `/allocation/getAllocations/${project}`, undefined, { company: globex }),
        'ProjectNotFoundError',
        404,
      );
    });

    it('refuses a projectId that is not an id', async () => {
      expectError(await call('GET', '/allocation/getAllocations/abc'), 'InvalidAllocationError');
    });
  });

  describe('roles and companies', () => {
    it('lets roles 1-3 write, roles 1-5 read, and nobody else', async () => {
      const worker = await newUser(FULL_WEEK);
      const body = allocation(worker, campaign, { from: '2026-09-07', to: '2026-09-11' });

      expect((await save(body, { role: 4 })).statusCode).toBe(403);
      expect((await save(body, { role: 6 })).json()).toEqual({
        error: 'Forbidden',
        message: 'Your role does not allow this operation',
      });
      expect((await save(body, { role: 3 })).statusCode).toBe(200);
      for (const [role, status] of [
        [5, 200],
        [6, 403],
      ]) {
        const response = await call('GET', `/allocation/getAllocations/${campaign}`, undefined, { role });
        expect(response.statusCode).toBe(status);
      }
    });

    it('refuses a body naming another company with 403', async () => {
      const worker = await newUser(FULL_WEEK);

      const response = await save(allocation(worker, campaign, { companyId: globex }));

      expect(response.statusCode).toBe(403);
      expect(response.json<{ error: string }>().error).toBe('Forbidden');
    });
  });

  describe('assignedByUserId', () => {
    let plannerDb: DataSource;
    let manager: number;

    beforeAll(async () => {
      plannerDb = await new DataSource(plannerOwnerDataSourceOptions(planner.env)).initialize();
      manager = await newUser(undefined, { role_id: 3 });
    });

    afterAll(() => plannerDb.destroy());

    // Not in any answer of the planner: read where it is stored.
    const assignersOf = async (userId: number): Promise<number[]> =>
      (
        await plannerDb.query<{ assigned_by_user_id: number }[]>(
          'SELECT assigned_by_user_id FROM allocations WHERE user_id = $1 ORDER BY from_date',
          [userId],
        )
      ).map((row) => Number(row.assigned_by_user_id));

    it("records a user token's own user as the assigner, whatever the body names, on save and update", async () => {
      const worker = await newUser(FULL_WEEK);
      const asManager = { role: 3, subject: `user:${manager}` };
      const booked = allocation(worker, website, {
        from: '2026-11-02',
        to: '2026-11-06',
        assignedByUserId: boss,
      });

      const saved = await save(booked, asManager);
      const savedAssigners = await assignersOf(worker);
      const updated = await update(booked, { ...booked, allocatedHours: 30 }, asManager);

      expect(saved.statusCode).toBe(200);
      expect(savedAssigners).toEqual([manager]);
      expect(updated.statusCode).toBe(200);
      expect(await assignersOf(worker)).toEqual([manager]);
    });

    it("keeps the user an API client's token names, once main-api knows it", async () => {
      const worker = await newUser(FULL_WEEK);
      const booked = allocation(worker, website, {
        from: '2026-11-02',
        to: '2026-11-06',
        assignedByUserId: manager,
      });

      const saved = await save(booked, apiClient);
      const unknown = await save(
        allocation(worker, campaign, { from: '2026-11-02', to: '2026-11-06', assignedByUserId: 999_999 }),
        apiClient,
      );

      expect(saved.statusCode).toBe(200);
      expect(await assignersOf(worker)).toEqual([manager]);
      expectError(unknown, 'UserNotFoundError');
      expect(unknown.json<{ message: string }>().message).toContain('assignedByUserId');
    });
  });

  describe('email', () => {
    let plannerDb: DataSource;

    beforeAll(async () => {
      plannerDb = await new DataSource(plannerOwnerDataSourceOptions(planner.env)).initialize();
    });

    afterAll(() => plannerDb.destroy());

    // Not in any answer of the planner (interfaces.md's getAllocations has no email): read where it is stored.
    const emailsOf = async (userId: number): Promise<(string | null)[]> =>
      (
        await plannerDb.query<{ email: string | null }[]>(
          'SELECT email FROM allocations WHERE user_id = $1 ORDER BY from_date',
          [userId],
        )
      ).map((row) => row.email);

    it("stores main-api's e-mail of the user, never the one the body names, on save and update (issue 33)", async () => {
      const worker = await newUser(FULL_WEEK);
      const known = (await main.call('GET', `/users/${worker}`)).json<{ email: string }>().email;
      const booked = allocation(worker, website, {
        from: '2026-12-07',
        to: '2026-12-11',
        email: 'ceo@elsewhere.test',
      });

      const saved = await save(booked);
      const savedEmails = await emailsOf(worker);
      const updated = await update(booked, { ...booked, allocatedHours: 30, email: 'cfo@elsewhere.test' });
      const withoutEmail = await save(
        allocation(worker, campaign, { from: '2026-12-07', to: '2026-12-11', email: undefined }),
      );

      expect(known).toMatch(/@planner\.test$/);
      expect(saved.statusCode).toBe(200);
      expect(savedEmails).toEqual([known]);
      expect(updated.statusCode).toBe(200);
      expect(withoutEmail.statusCode).toBe(200);
      expect(await emailsOf(worker)).toEqual([known, known]);
    });
  });

  describe('batches (POST /v2/batch)', () => {
    interface BatchResult {
      index: number;
      status: number;
      body: { error?: string } | null;
    }
    const batch = (body: object) => call('POST', '/v2/batch', body);
    /** The user's allocations on the three projects, as the interface's read shows them. */
    const countFor = async (userId: number): Promise<number> => {
      let count = 0;
      for (const project of [website, campaign, retainer]) {
        const user = (await allocationsOf(project)).users.find((entry) => entry.userId === userId);
        count += user?.allocations.length ?? 0;
      }
      return count;
    };

    it('previews a week of bookings as a dry run, then saves them atomically', async () => {
      const worker = await newUser(FULL_WEEK);
      const operations = [website, campaign].map((project) => ({
        method: 'POST',
        path: '/allocation/saveAllocation',
        body: allocation(worker, project, { from: '2026-11-02', to: '2026-11-06', allocatedHours: 10 }),
      }));

      const preview = await batch({ dry_run: true, operations });
      expect(preview.statusCode).toBe(200);
      expect(preview.json<{ committed: boolean; results: BatchResult[] }>()).toMatchObject({
        committed: false,
        results: [{ status: 200 }, { status: 200 }],
      });
      expect(await countFor(worker)).toBe(0);

      const saved = await batch({ operations });
      expect(saved.statusCode).toBe(200);
      expect(await countFor(worker)).toBe(2);
    });

    it('saves nothing of an atomic batch whose second booking overlaps its first', async () => {
      const worker = await newUser(FULL_WEEK);
      const booking = allocation(worker, website, { from: '2026-11-09', to: '2026-11-13' });
      const answer = await batch({
        operations: [
          { method: 'POST', path: '/allocation/saveAllocation', body: booking },
          { method: 'POST', path: '/allocation/saveAllocation', body: { ...booking, to: '2026-11-20' } },
        ],
      });

      expect(answer.statusCode).toBe(409);
      const body = answer.json<{ error: string; results: BatchResult[] }>();
      expect(body.error).toBe('ConflictError');
      expect(body.results.map((result) => [result.status, result.body?.error ?? null])).toEqual([
        [200, null],
        [400, 'AllocationAlreadyExistInDatesRangeError'],
      ]);
      expect(await countFor(worker)).toBe(0);
    });

    it('lets exactly one of ten racing atomic batches book the same week', async () => {
      const worker = await newUser(FULL_WEEK);
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, attempt) =>
          batch({
            operations: [
              {
                method: 'POST',
                path: '/allocation/saveAllocation',
                body: allocation(worker, retainer, {
                  from: '2026-11-16',
                  to: '2026-11-20',
                  allocatedHours: 10 + attempt,
                }),
              },
            ],
          }),
        ),
      );
      const statuses = answers.map((answer) => answer.statusCode).sort();
      expect(statuses).toEqual([200, ...Array.from({ length: 9 }, () => 409)]);
      expect(await countFor(worker)).toBe(1);
    });

    it('refuses operations outside the allocation routes before running any', async () => {
      const answer = await batch({
        operations: [
          { method: 'POST', path: '/health/live' },
          { method: 'POST', path: '/v2/batch' },
        ],
      });
      expect(answer.statusCode).toBe(400);
      expect(answer.json<{ error: string; message: string }>().message).toMatch(/operations\[0\]\.path/);
    });
  });

  describe('change feed (GET /v2/events)', () => {
    interface FeedPage {
      data: {
        cursor: string;
        entity: string;
        id: string;
        kind: string;
        changed_fields: string[];
        project_id: number | null;
        user_id: number | null;
      }[];
      next_cursor: string;
    }
    const feed = async (after: string, options?: CallAs): Promise<FeedPage> => {
      const answer = await call('GET', `/v2/events?after=${after}&limit=1000`, undefined, options);
      expect(answer.statusCode).toBe(200);
      return answer.json<FeedPage>();
    };

    it('records each create, update and delete of an allocation, in order, through any route', async () => {
      const worker = await newUser(FULL_WEEK);
      const after = (await feed('0')).next_cursor;
      const booking = allocation(worker, website, {
        from: '2026-12-07',
        to: '2026-12-11',
        allocatedHours: 10,
      });
      expect((await save(booking)).statusCode).toBe(200);
      expect((await update(booking, { ...booking, allocatedHours: 12 })).statusCode).toBe(200);
      // Through a batch too: one more booking, then both removed.
      const other = allocation(worker, campaign, { from: '2026-12-07', to: '2026-12-11', allocatedHours: 5 });
      const batch = await call('POST', '/v2/batch', {
        operations: [
          { method: 'POST', path: '/allocation/saveAllocation', body: other },
          {
            method: 'DELETE',
            path: '/allocation/removeAllocation',
            body: { ...booking, allocatedHours: 12 },
          },
        ],
      });
      expect(batch.statusCode).toBe(200);

      const events = (await feed(after)).data.filter((event) => event.user_id === worker);
      expect(events.map((event) => [event.kind, event.project_id])).toEqual([
        ['created', website],
        ['updated', website],
        ['created', campaign],
        ['deleted', website],
      ]);
      expect(events[1].changed_fields).toEqual(['allocated_hours']);
      expect(events[0].id).toBe(events[3].id);
      expect(events.every((event) => event.entity === 'allocations')).toBe(true);
      // A rolled-back batch writes no event.
      const before = (await feed('0')).next_cursor;
      const preview = await call('POST', '/v2/batch', {
        dry_run: true,
        operations: [{ method: 'DELETE', path: '/allocation/removeAllocation', body: other }],
      });
      expect(preview.statusCode).toBe(200);
      expect((await feed(before)).data).toEqual([]);
    });

    it('shows a company only its own events, to roles 1-2, and a cursor behind the retention window 410', async () => {
      expect((await feed('0', { company: globex })).data).toEqual([]);
      expect((await call('GET', '/v2/events', undefined, { role: 3 })).statusCode).toBe(403);
      expect((await call('GET', '/v2/events?after=abc')).statusCode).toBe(400);

      const plannerDb = await new DataSource(plannerOwnerDataSourceOptions(planner.env)).initialize();
      const all = await feed('0');
      const oldCursor = all.data[0].cursor;
      try {
        await plannerDb.query(
          `UPDATE change_events SET occurred_at = now() - interval '31 days' WHERE company_id = $1 AND "cursor" <= $2`,
          [acme, all.next_cursor],
        );
        await planner.app.get(RetentionPruner).runOnce(['change_events']);
      } finally {
        await plannerDb.destroy();
      }
      const expired = await call('GET', `/v2/events?after=${oldCursor}`);
      expect(expired.statusCode).toBe(410);
      expect(expired.json()).toEqual({
        error: 'CursorExpiredError',
        message: expect.stringContaining('after=0'),
      });
      expect((await feed('0')).data).toEqual([]);
    });
  });

  describe('main-api stopped', () => {
    it('answers 503 MainApiUnavailableError within the timeout, never a hang', async () => {
      mainApiStopped = true;
      await main.close();

      const started = Date.now();
      const read = await call('GET', `/allocation/getAllocations/${website}`);
      const write = await save(allocation(boss, website, { from: '2026-10-05', to: '2026-10-09' }));
      const elapsed = Date.now() - started;

      expect(read.statusCode).toBe(503);
      expect(read.json()).toEqual({ error: 'MainApiUnavailableError', message: expect.any(String) });
      expect(write.statusCode).toBe(503);
      // Two requests, each bounded by MAIN_API_TIMEOUT_MS, retries included (a refused connection
      // fails at once, so in practice this takes milliseconds).
      expect(elapsed).toBeLessThan(2 * MAIN_API_TIMEOUT_MS + 1000);
    });
  });
});
