import { MainApiClient } from '@platform/main-api-client';
import { FakeHttpServer } from '@platform/testing';
import { PlannerMainApi } from './planner-main-api';

/** main-api's answer to one look-up: each asked id comes back, user 7 with label 3 and a leave. */
function answerFor(url: string) {
  const query = new URL(url, 'http://main-api').searchParams;
  const ids = (name: string) => (query.get(name) ?? '').split(',').filter(Boolean).map(Number);
  const users = ids('user_ids');
  return {
    users: users.map((id) => ({ id, first_name: `U${id}`, labels: id === 7 ? [3] : [] })),
    projects: ids('project_ids').map((id) => ({ id, name: `P${id}`, client: null })),
    working_time: Object.fromEntries(users.map((id) => [String(id), [{ day_of_week: 1, daily_hours: 8 }]])),
    leaves:
      users.includes(7) && query.get('from')
        ? [
            { user_id: 7, start: 'a' },
            { user_id: 7, start: 'b' },
          ]
        : [],
    labels: users.includes(7) ? [{ id: 3, name: 'Remote', color: '#000000' }] : [],
    tasks: ids('task_ids').map((id) => ({ id, project_id: id * 10 })),
    positions: ids('position_ids').map((id) => ({ id, name: `Pos${id}`, category_id: id + 100 })),
    categories: ids('category_ids').map((id) => ({ id, name: `Cat${id}` })),
  };
}

describe('PlannerMainApi.lookups', () => {
  let mainApi: FakeHttpServer;
  let planner: PlannerMainApi;
  const caller = { authorization: 'Bearer abc' };

  beforeEach(async () => {
    mainApi = await FakeHttpServer.start((request, response) => {
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(answerFor(request.url)));
    });
    planner = new PlannerMainApi(new MainApiClient({ baseUrl: mainApi.url, timeoutMs: 1000, retries: 0 }));
  });

  afterEach(() => mainApi.stop());

  it('asks for everything in one call and answers it by id', async () => {
    const lookups = await planner.lookups(
      {
        userIds: [7, 8, 7],
        projectIds: [1, 2],
        taskIds: [4],
        period: { from: '2027-01-01', to: '2027-01-31' },
      },
      caller,
    );

    expect(mainApi.requests.map((request) => request.url)).toEqual([
      '/v1/planner/lookups?user_ids=7%2C8&project_ids=1%2C2&task_ids=4&from=2027-01-01&to=2027-01-31',
    ]);
    expect([...lookups.taskProjects]).toEqual([[4, 40]]);
    expect(mainApi.requests[0].headers.authorization).toBe('Bearer abc');
    expect([...lookups.users.keys()]).toEqual([7, 8]);
    expect([...lookups.projects.keys()]).toEqual([1, 2]);
    expect([...lookups.weeks.keys()]).toEqual([7, 8]);
    expect(lookups.leaves.get(7)).toHaveLength(2);
    expect(lookups.leaves.has(8)).toBe(false);
    expect(lookups.labels.get(3)?.name).toBe('Remote');
  });

  it("splits ids beyond main-api's 500 a call over parallel calls and merges the answers", async () => {
    const userIds = Array.from({ length: 1_100 }, (_, index) => index + 1);

    const lookups = await planner.lookups(
      { userIds, projectIds: [40, 41], period: { from: '2027-01-01', to: '2027-01-31' } },
      caller,
    );

    const asked = mainApi.requests.map((request) => new URL(request.url, 'http://main-api').searchParams);
    expect(asked.map((query) => query.get('user_ids')?.split(',').length)).toEqual([500, 500, 100]);
    expect(asked.map((query) => query.get('project_ids'))).toEqual(['40,41', null, null]);
    expect(
      asked.every((query) => query.get('from') === '2027-01-01' && query.get('to') === '2027-01-31'),
    ).toBe(true);
    expect(lookups.users.size).toBe(1_100);
    expect(lookups.weeks.size).toBe(1_100);
    expect([...lookups.projects.keys()]).toEqual([40, 41]);
    expect(lookups.leaves.get(7)).toHaveLength(2);
  });

  it("asks for a placeholder's position, category and labels in the same one call", async () => {
    const lookups = await planner.lookups(
      { positionIds: [3], categoryIds: [2, 2], labelIds: [5], projectIds: [1] },
      caller,
    );

    expect(mainApi.requests.map((request) => request.url)).toEqual([
      '/v1/planner/lookups?project_ids=1&position_ids=3&category_ids=2&label_ids=5',
    ]);
    expect([...lookups.positions.values()]).toEqual([{ id: 3, name: 'Pos3', category_id: 103 }]);
    expect([...lookups.categories.keys()]).toEqual([2]);
  });

  it('asks only for projects when no user is named, without a period', async () => {
    const projects = await planner.projectsByIds([5], caller);

    expect(mainApi.requests.map((request) => request.url)).toEqual(['/v1/planner/lookups?project_ids=5']);
    expect([...projects.keys()]).toEqual([5]);
  });
});
