import type { LightMyRequestResponse } from 'fastify';
import { startBoard, type Body, type Board } from './support/board-harness';

interface Allocation {
  id: string;
  user_id: number | null;
  placeholder_id: string | null;
  project_id: number;
  from: string;
  to: string;
  status: string;
  total_hours: number;
  version: number;
}

interface Scenario {
  id: string;
  name: string;
  status: 'draft' | 'applied';
  base_scenario_id: string | null;
  author_user_id: number | null;
  version: number;
  applied_changes: unknown;
}

interface Week {
  from: string;
  to: string;
  capacity: number;
  confirmed: number;
  tentative: number;
  available: number;
}

interface Conflict {
  entity: string;
  id: string;
  reason: string;
}

const weeks = (answer: { people: { user_id: number; series: Week[] }[] }) =>
  Object.fromEntries(
    answer.people.map((person) => [
      person.user_id,
      person.series.map(({ confirmed, tentative, available }) => ({ confirmed, tentative, available })),
    ]),
  );

/**
 * What-if scenarios (issue 39), the way a planning board uses them: a named draft of the plan that
 * writes change and reads answer without touching the live plan, a diff with the capacity impact,
 * and an apply that writes all of it or nothing. March 2027: the 1st is a Monday.
 */
describe('planner v2: scenarios (e2e)', () => {
  let board: Board;
  let designer: number;
  let ada: number;
  let bo: number;
  let client: number;
  let launch: number;
  let pipeline: number;

  const inScenario = (url: string, scenario: { id: string }) =>
    `${url}${url.includes('?') ? '&' : '?'}scenario_id=${scenario.id}`;
  const newScenario = async (
    body: Body = { name: 'What if' },
  ): Promise<{ scenario: Scenario; etag: string }> => {
    const answer = await board.call('POST', '/v2/scenarios', body);
    expect({ status: answer.statusCode, body: answer.json<Body>() }).toMatchObject({ status: 201 });
    return { scenario: answer.json<Scenario>(), etag: answer.headers.etag as string };
  };
  const etagOf = async (url: string): Promise<string> => {
    const answer = await board.call('GET', url);
    expect({ status: answer.statusCode, body: answer.json<Body>() }).toMatchObject({ status: 200 });
    return answer.headers.etag as string;
  };
  const book = (body: Body, scenario?: { id: string }) =>
    board.ok<Allocation>(
      board.call('POST', scenario ? inScenario('/v2/allocations', scenario) : '/v2/allocations', body),
      201,
    );
  const patch = async (id: string, body: Body, scenario?: { id: string }) => {
    const url = scenario ? inScenario(`/v2/allocations/${id}`, scenario) : `/v2/allocations/${id}`;
    return board.call('PATCH', url, body, { 'if-match': await etagOf(url) });
  };
  const availability = (query: string) =>
    board.ok<{ people: { user_id: number; series: Week[] }[] }>(
      board.call('GET', `/v2/availability?from=2027-03-01&to=2027-03-14&granularity=week&${query}`),
    );
  const apply = async (scenario: { id: string }): Promise<LightMyRequestResponse> =>
    board.call('POST', `/v2/scenarios/${scenario.id}/apply`, undefined, {
      'if-match': await etagOf(`/v2/scenarios/${scenario.id}`),
    });
  const liveAllocations = async (query: string) =>
    (await board.ok<{ data: Allocation[] }>(board.call('GET', `/v2/allocations?limit=500&${query}`))).data;
  const cursorNow = async () => {
    const events = await board.feed();
    return events.at(-1)?.cursor ?? '0';
  };

  beforeAll(async () => {
    board = await startBoard(['Scenarios', 'Other agency']);
    const { main } = board;
    client = board.clientId;
    const creative = await board.created(main.call('POST', '/position-categories', { name: 'Creative' }));
    designer = await board.created(
      main.call('POST', '/positions', { name: 'Designer', category_id: creative }),
    );
    ada = await board.newPerson('Ada', { positionId: designer });
    bo = await board.newPerson('Bo', { positionId: designer });
    launch = await board.newProject('Launch');
    pipeline = await board.newProject('Pitch (pipeline)');
    expect(client).toBeGreaterThan(0);
  });

  afterAll(async () => {
    await board?.close();
  });

  it('plans a pitch, tries moving work in a scenario, applies it, and refuses a stale one', async () => {
    // Live: Ada is on the launch all of the first week (40 h, confirmed).
    const adaOnLaunch = await book({
      user_id: ada,
      project_id: launch,
      from: '2027-03-01',
      to: '2027-03-05',
      hours_per_day: 8,
    });
    // A senior designer nobody is named for yet: 4 h each weekday of the second week, tentative.
    const senior = await board.ok<{ id: string }>(
      board.call('POST', '/v2/placeholders', { name: 'Senior designer', position_id: designer }),
      201,
    );
    const pitch = await book({
      placeholder_id: senior.id,
      project_id: pipeline,
      from: '2027-03-08',
      to: '2027-03-12',
      hours_per_day: 4,
      status: 'tentative',
    });

    // Demand against supply by week: designers' 80 h a week, Ada's 40 booked in week 1, the pitch's 20
    // unfilled in week 2.
    const demand = await board.ok<{ groups: { id: number | null; periods: Body[] }[] }>(
      board.call('GET', '/v2/demand?from=2027-03-01&to=2027-03-14&group_by=position&granularity=week'),
    );
    expect(demand.groups.find((group) => group.id === designer)?.periods).toEqual([
      { from: '2027-03-01', to: '2027-03-07', demand_unfilled: 0, demand_filled: 40, supply_available: 40 },
      { from: '2027-03-08', to: '2027-03-14', demand_unfilled: 20, demand_filled: 0, supply_available: 80 },
    ]);
    // Both designers are free for all 20 h of it.
    const candidates = await board.ok<{ people: { user_id: number; hours_covered: number }[] }>(
      board.call('GET', `/v2/placeholders/${senior.id}/candidates?from=2027-03-08&to=2027-03-12`),
    );
    expect(candidates.people.map(({ user_id, hours_covered }) => [user_id, hours_covered])).toEqual([
      [ada, 20],
      [bo, 20],
    ]);

    const liveBefore = weeks(await availability(`user_ids=${ada},${bo}`));
    expect(liveBefore).toEqual({
      [ada]: [
        { confirmed: 40, tentative: 0, available: 0 },
        { confirmed: 0, tentative: 0, available: 40 },
      ],
      [bo]: [
        { confirmed: 0, tentative: 0, available: 40 },
        { confirmed: 0, tentative: 0, available: 40 },
      ],
    });
    const cursorBefore = await cursorNow();

    // The scenario: Bo takes the launch, and Ada takes the pitch.
    const { scenario } = await newScenario({ name: 'Bo takes the launch' });
    expect(scenario).toMatchObject({ status: 'draft', base_scenario_id: null, author_user_id: board.bossId });
    const moved = await patch(adaOnLaunch.id, { user_id: bo }, scenario);
    expect({ status: moved.statusCode, body: moved.json<Body>() }).toMatchObject({
      status: 200,
      body: { id: adaOnLaunch.id, user_id: bo },
    });
    const placeholderUrl = inScenario(`/v2/placeholders/${senior.id}`, scenario);
    const filled = await board.call(
      'POST',
      inScenario(`/v2/placeholders/${senior.id}/assign`, scenario),
      { user_id: ada },
      { 'if-match': await etagOf(placeholderUrl) },
    );
    expect({ status: filled.statusCode, body: filled.json<Body>() }).toMatchObject({
      status: 200,
      body: { moved: [pitch.id] },
    });

    // Inside the scenario the numbers moved; outside, nothing did: no allocation, no event.
    const inside = weeks(await availability(`user_ids=${ada},${bo}&scenario_id=${scenario.id}`));
    expect(inside).toEqual({
      [ada]: [
        { confirmed: 0, tentative: 0, available: 40 },
        { confirmed: 0, tentative: 20, available: 40 },
      ],
      [bo]: [
        { confirmed: 40, tentative: 0, available: 0 },
        { confirmed: 0, tentative: 0, available: 40 },
      ],
    });
    expect(weeks(await availability(`user_ids=${ada},${bo}`))).toEqual(liveBefore);
    expect((await liveAllocations(`user_ids=${ada}`)).map((row) => row.id)).toEqual([adaOnLaunch.id]);
    expect(await board.feed(cursorBefore)).toEqual([]);
    // The scenario's demand: the pitch is Ada's there, so nothing is unfilled.
    const scenarioDemand = await board.ok<{ groups: { id: number | null; totals: Body }[] }>(
      board.call(
        'GET',
        inScenario('/v2/demand?from=2027-03-01&to=2027-03-14&group_by=position&granularity=week', scenario),
      ),
    );
    expect(scenarioDemand.groups.find((group) => group.id === designer)?.totals).toEqual({
      demand_unfilled: 0,
      demand_filled: 40,
      supply_available: 120,
    });

    // The diff: two allocations changed; Ada books 20 h less over 1-12 March, Bo 40 h more.
    const diff = await board.ok<{
      allocations: {
        id: string;
        change: string;
        live: Allocation;
        scenario: Allocation;
        conflict: unknown;
      }[];
      placeholders: unknown[];
      capacity_impact: {
        user_id: number;
        from: string;
        to: string;
        booked_change: number;
        live: Body;
        scenario: Body;
      }[];
      conflicts: number;
    }>(board.call('GET', `/v2/scenarios/${scenario.id}/diff`));
    expect(diff.conflicts).toBe(0);
    expect(diff.placeholders).toEqual([]);
    expect(
      diff.allocations
        .map((change) => [
          change.id,
          change.change,
          change.live.user_id,
          change.scenario.user_id,
          change.conflict,
        ])
        .sort(),
    ).toEqual(
      [
        [adaOnLaunch.id, 'updated', ada, bo, null],
        [pitch.id, 'updated', null, ada, null],
      ].sort(),
    );
    expect(diff.capacity_impact).toEqual([
      {
        user_id: ada,
        from: '2027-03-01',
        to: '2027-03-12',
        live: { capacity: 80, confirmed: 40, tentative: 0, available: 40, over_allocated_days: 0 },
        scenario: { capacity: 80, confirmed: 0, tentative: 20, available: 80, over_allocated_days: 0 },
        booked_change: -20,
      },
      {
        user_id: bo,
        from: '2027-03-01',
        to: '2027-03-05',
        live: { capacity: 40, confirmed: 0, tentative: 0, available: 40, over_allocated_days: 0 },
        scenario: { capacity: 40, confirmed: 40, tentative: 0, available: 0, over_allocated_days: 0 },
        booked_change: 40,
      },
    ]);

    // Apply: If-Match required; then the live plan is the scenario's, and the changes are events.
    board.expectError(
      await board.call('POST', `/v2/scenarios/${scenario.id}/apply`),
      428,
      'PreconditionRequiredError',
    );
    const applied = await apply(scenario);
    expect({ status: applied.statusCode, body: applied.json<Body>() }).toMatchObject({
      status: 200,
      body: {
        scenario: { id: scenario.id, status: 'applied' },
        created: { allocations: [], placeholders: [] },
        deleted: { allocations: [], placeholders: [] },
        over_allocated_days: [],
      },
    });
    expect(applied.json<{ updated: { allocations: string[] } }>().updated.allocations.sort()).toEqual(
      [adaOnLaunch.id, pitch.id].sort(),
    );
    expect(weeks(await availability(`user_ids=${ada},${bo}`))).toEqual(inside);
    const events = await board.feed(cursorBefore);
    expect(events.map((event) => [event.entity, event.id, event.kind]).sort()).toEqual(
      [
        ['allocations', adaOnLaunch.id, 'updated'],
        ['allocations', pitch.id, 'updated'],
        ['scenarios', scenario.id, 'updated'],
      ].sort(),
    );

    // An applied scenario is history: a second apply, and reads or writes in it, are refused.
    board.expectError(await apply(scenario), 409, 'ScenarioAppliedError');
    board.expectError(
      await board.call('GET', inScenario('/v2/allocations', scenario)),
      409,
      'ScenarioAppliedError',
    );

    // A scenario made now, whose change the live plan overtakes before it is applied: refused, with
    // the item named, and nothing of it written (its new booking neither).
    const { scenario: stale } = await newScenario({ name: 'Longer launch' });
    expect((await patch(adaOnLaunch.id, { hours_per_day: 6 }, stale)).statusCode).toBe(200);
    await book(
      { user_id: bo, project_id: pipeline, from: '2027-03-08', to: '2027-03-09', hours_per_day: 2 },
      stale,
    );
    expect((await patch(adaOnLaunch.id, { hours_per_day: 7 })).statusCode).toBe(200);
    const refused = await apply(stale);
    expect({ status: refused.statusCode, body: refused.json<Body>() }).toMatchObject({
      status: 409,
      body: {
        error: 'ScenarioConflictError',
        conflicts: [{ entity: 'allocation', id: adaOnLaunch.id, reason: 'live_changed' }],
      },
    });
    expect(refused.json<{ conflicts: Conflict[] }>().conflicts).toHaveLength(1);
    expect((await liveAllocations(`user_ids=${bo}&project_ids=${pipeline}`)).length).toBe(0);
    expect(
      (await board.ok<Allocation>(board.call('GET', `/v2/allocations/${adaOnLaunch.id}`))).total_hours,
    ).toBe(35);
  });

  it('keeps a scenario out of the live plan, the interface and other companies, and discards it', async () => {
    const cursorBefore = await cursorNow();
    const { scenario, etag } = await newScenario({ name: 'Private thoughts' });
    const hire = await board.ok<{ id: string }>(
      board.call('POST', inScenario('/v2/placeholders', scenario), { name: 'Motion designer' }),
      201,
    );
    const booking = await book(
      { placeholder_id: hire.id, project_id: launch, from: '2027-04-05', to: '2027-04-09', total_hours: 10 },
      scenario,
    );
    // In the scenario: there. Live, in the interface's routes, and in the feed: nowhere.
    expect(
      (await board.ok<Allocation>(board.call('GET', inScenario(`/v2/allocations/${booking.id}`, scenario))))
        .id,
    ).toBe(booking.id);
    board.expectError(
      await board.call('GET', `/v2/allocations/${booking.id}`),
      404,
      'AllocationNotFoundError',
    );
    board.expectError(
      await board.call('GET', `/v2/placeholders/${hire.id}`),
      404,
      'PlaceholderNotFoundError',
    );
    const interfaceRows = await board.call('GET', `/allocation/getAllocations/${launch}`);
    expect(interfaceRows.body).not.toContain(booking.id);
    expect(await board.feed(cursorBefore)).toEqual([]);

    // Another company sees no such scenario, and cannot enter it.
    const other = {
      authorization: board.tokenOf(board.main.companies[1].companyId, board.main.companies[1].userId),
    };
    board.expectError(
      await board.call('GET', `/v2/scenarios/${scenario.id}`, undefined, other),
      404,
      'ScenarioNotFoundError',
    );
    board.expectError(
      await board.call('GET', inScenario('/v2/allocations', scenario), undefined, other),
      404,
      'ScenarioNotFoundError',
    );

    // Its writes moved its version: the ETag from its creation is stale, so the discard needs the new one.
    const stale = await board.call('DELETE', `/v2/scenarios/${scenario.id}`, undefined, { 'if-match': etag });
    expect(stale.statusCode).toBe(412);
    const discarded = await board.call('DELETE', `/v2/scenarios/${scenario.id}`, undefined, {
      'if-match': await etagOf(`/v2/scenarios/${scenario.id}`),
    });
    expect(discarded.statusCode).toBe(204);
    board.expectError(await board.call('GET', `/v2/scenarios/${scenario.id}`), 404, 'ScenarioNotFoundError');
    expect(await board.feed(cursorBefore)).toEqual([]);

    // The list, page by page (newest first): every scenario of the company once, none of another's.
    const listed: string[] = [];
    for (let cursor: string | null = ''; cursor !== null;) {
      const page: { data: Scenario[]; next_cursor: string | null } = await board.ok(
        board.call('GET', `/v2/scenarios?limit=1${cursor ? `&cursor=${cursor}` : ''}`),
      );
      listed.push(...page.data.map((each) => each.id));
      cursor = page.next_cursor;
    }
    expect(new Set(listed).size).toBe(listed.length);
    expect(listed.length).toBeGreaterThanOrEqual(2);
    expect(listed).not.toContain(scenario.id);
  });

  it('applies atomically: readers see all of it or none, and a parallel booking never overbooks with it', async () => {
    const settingsEtag = await etagOf('/v2/planning-settings');
    expect(
      (
        await board.call(
          'PUT',
          '/v2/planning-settings',
          { capacity_policy: 'reject', count_tentative: false },
          {
            'if-match': settingsEtag,
          },
        )
      ).statusCode,
    ).toBe(200);
    const [cy, dee] = [await board.newPerson('Cy'), await board.newPerson('Dee')];
    const retainer = await board.newProject('Retainer');
    // Cy: twenty weeks of the retainer, 4 h a day (from Monday 3 May 2027).
    const weeksOfCy: Allocation[] = [];
    for (let week = 0; week < 20; week += 1) {
      const monday = new Date(Date.UTC(2027, 4, 3 + week * 7));
      const friday = new Date(monday.getTime() + 4 * 86_400_000);
      weeksOfCy.push(
        await book({
          user_id: cy,
          project_id: retainer,
          from: monday.toISOString().slice(0, 10),
          to: friday.toISOString().slice(0, 10),
          hours_per_day: 4,
        }),
      );
    }
    const { scenario } = await newScenario({ name: 'Dee takes the retainer' });
    for (const allocation of weeksOfCy) {
      expect((await patch(allocation.id, { user_id: dee }, scenario)).statusCode).toBe(200);
    }

    // While it applies, readers of the live plan see Cy's twenty weeks or Dee's, never a mix; and a
    // booking of Dee for 6 h a day in week 1 races it under the reject policy: exactly one of the two
    // wins (4 + 6 > 8).
    const seen = new Set<string>();
    let applying = true;
    const reader = async () => {
      while (applying) {
        const [onCy, onDee] = [
          await liveAllocations(`user_ids=${cy}&project_ids=${retainer}`),
          await liveAllocations(`user_ids=${dee}&project_ids=${retainer}`),
        ];
        seen.add(`${onCy.length}+${onDee.length}`);
      }
    };
    const racer = board.call('POST', '/v2/allocations', {
      user_id: dee,
      project_id: launch,
      from: '2027-05-03',
      to: '2027-05-07',
      hours_per_day: 6,
    });
    const applied = apply(scenario).finally(() => {
      applying = false;
    });
    const [answer, raced] = await Promise.all([applied, racer, reader(), reader()]);
    const outcomes = [answer.statusCode, raced.statusCode].sort();
    expect([
      [200, 422],
      [201, 409],
    ]).toContainEqual(outcomes);
    expect(seen.size).toBeGreaterThan(0);
    for (const view of seen) {
      // A reader's two calls are not one snapshot, so "20+20" (Cy read before, Dee after) is possible;
      // half of the apply (say 7 of Cy's weeks moved) is not.
      expect(['20+0', '0+20', '20+20']).toContain(view);
    }
    const final = [
      (await liveAllocations(`user_ids=${cy}&project_ids=${retainer}`)).length,
      (await liveAllocations(`user_ids=${dee}&project_ids=${retainer}`)).length,
    ];
    if (answer.statusCode === 200) {
      expect(final).toEqual([0, 20]);
      expect((await liveAllocations(`user_ids=${dee}&project_ids=${launch}`)).length).toBe(0);
    } else {
      expect(answer.json<{ conflicts: Conflict[] }>().conflicts[0]).toMatchObject({
        reason: 'over_capacity',
      });
      expect(final).toEqual([20, 0]);
    }
    // Two scenarios that both move the same booking: the second to apply finds it moved (live_changed).
    const [first, second] = [
      (await newScenario({ name: 'First' })).scenario,
      (await newScenario({ name: 'Second' })).scenario,
    ];
    const target = weeksOfCy[19];
    for (const each of [first, second]) {
      expect((await patch(target.id, { hours_per_day: 2 }, each)).statusCode).toBe(200);
    }
    const both = await Promise.all([apply(first), apply(second)]);
    expect(both.map((each) => each.statusCode).sort()).toEqual([200, 409]);
  });
  it('applies an overbooking scenario under warn: the days over capacity are in the answer and the feed', async () => {
    const settingsEtag = await etagOf('/v2/planning-settings');
    expect(
      (
        await board.call(
          'PUT',
          '/v2/planning-settings',
          { capacity_policy: 'warn', count_tentative: false },
          { 'if-match': settingsEtag },
        )
      ).statusCode,
    ).toBe(200);
    const eve = await board.newPerson('Eve');
    const [one, two] = [await board.newProject('Warn one'), await board.newProject('Warn two')];
    await book({ user_id: eve, project_id: one, from: '2027-09-06', to: '2027-09-07', hours_per_day: 6 });
    const { scenario } = await newScenario({ name: 'Eve on both' });
    // In the scenario, 4 more hours on both days: 10 of 8 each day, warned of there (no event yet).
    const cursorBefore = await cursorNow();
    const drafted = await book(
      { user_id: eve, project_id: two, from: '2027-09-06', to: '2027-09-07', hours_per_day: 4 },
      scenario,
    );
    expect(await board.feed(cursorBefore)).toEqual([]);

    const applied = await apply(scenario);
    expect({ status: applied.statusCode, body: applied.json<Body>() }).toMatchObject({
      status: 200,
      body: {
        created: { allocations: [drafted.id], placeholders: [] },
        over_allocated_days: [
          { user_id: eve, date: '2027-09-06', capacity: 8, booked: 10, over: 2 },
          { user_id: eve, date: '2027-09-07', capacity: 8, booked: 10, over: 2 },
        ],
      },
    });
    const events = (await board.feed(cursorBefore)).map((event) => [event.entity, event.kind, event.user_id]);
    expect(events.filter(([entity]) => entity === 'availability')).toEqual([
      ['availability', 'over_allocated', eve],
      ['availability', 'over_allocated', eve],
    ]);
    expect(events).toContainEqual(['allocations', 'created', eve]);
  });
});
