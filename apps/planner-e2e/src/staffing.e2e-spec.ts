import { startBoard, type Board } from './support/board-harness';

interface DemandFigures {
  demand_unfilled: number;
  demand_filled: number;
  supply_available: number;
}
interface DemandGroup {
  id: number | null;
  name: string | null;
  totals: DemandFigures;
  periods: (DemandFigures & { from: string; to: string })[];
}
interface Candidate {
  user_id: number;
  hours_covered: number;
  coverage: number;
  reasons: { position_matched: boolean; category_matched: boolean; labels_matched: number[] };
}

/**
 * Plan before you staff (issue 39): a placeholder booked on pipeline work, demand against supply
 * by position and category, and the people who could fill it, over the two weeks from Monday
 * 1 March 2027; every figure worked out by hand in the comments.
 */
describe('planner v2: demand against supply, and candidates for a placeholder (e2e)', () => {
  let board: Board;
  let creative: number;
  let designer: number;
  let writer: number;
  let senior: number;
  let dee: number;
  let dan: number;
  let wes: number;
  let placeholder: string;

  const get = (url: string) => board.call('GET', url);
  const book = (body: object) => board.ok(board.call('POST', '/v2/allocations', body), 201);
  const demand = (query: string) =>
    board.ok<{ groups: DemandGroup[] }>(get(`/v2/demand?from=2027-03-01&to=2027-03-14&${query}`));
  const groupOf = (groups: DemandGroup[], id: number | null) => groups.find((group) => group.id === id);

  beforeAll(async () => {
    board = await startBoard(['Staffing']);
    const { main, created } = board;
    const live = await board.newProject('Live');
    const pipeline = await board.newProject('Pipeline');
    creative = await created(main.call('POST', '/position-categories', { name: 'Creative' }));
    designer = await created(main.call('POST', '/positions', { name: 'Designer', category_id: creative }));
    writer = await created(main.call('POST', '/positions', { name: 'Writer' }));
    senior = await created(main.call('POST', '/labels', { name: 'Senior', color: '#112233', model: 'user' }));
    dee = await board.newPerson('Dee', { positionId: designer, labels: [senior] });
    dan = await board.newPerson('Dan', { positionId: designer, labels: [] });
    wes = await board.newPerson('Wes', { positionId: writer, labels: [] });

    // Dee: 6 hours a day confirmed in the first week (30). Dan: 6 hours a day tentative in the second (30).
    await book({ user_id: dee, project_id: live, from: '2027-03-01', to: '2027-03-05', hours_per_day: 6 });
    await book({
      user_id: dan,
      project_id: live,
      from: '2027-03-08',
      to: '2027-03-12',
      hours_per_day: 6,
      status: 'tentative',
    });
    // A senior designer nobody is named for yet: 4 hours each weekday of both weeks (40), pipeline work.
    placeholder = (
      await board.ok<{ id: string }>(
        board.call('POST', '/v2/placeholders', {
          name: 'Senior designer',
          position_id: designer,
          label_ids: [senior],
        }),
        201,
      )
    ).id;
    await book({
      placeholder_id: placeholder,
      project_id: pipeline,
      from: '2027-03-01',
      to: '2027-03-12',
      hours_per_day: 4,
      status: 'tentative',
    });
  });

  afterAll(async () => {
    await board?.close();
  });

  it('answers demand against supply by position and week, worked out by hand', async () => {
    const { groups } = await demand('group_by=position&granularity=week');

    // Designers. Week 1: the placeholder's 20 unfilled; Dee's 30 filled; 80 capacity − 30 = 50 free.
    // Week 2: 20 unfilled; Dan's 30 are tentative, so not filled (by default) and still free: 80.
    expect(groupOf(groups, designer)).toEqual({
      id: designer,
      name: 'Designer',
      totals: { demand_unfilled: 40, demand_filled: 30, supply_available: 130 },
      periods: [
        {
          from: '2027-03-01',
          to: '2027-03-07',
          demand_unfilled: 20,
          demand_filled: 30,
          supply_available: 50,
        },
        { from: '2027-03-08', to: '2027-03-14', demand_unfilled: 20, demand_filled: 0, supply_available: 80 },
      ],
    });
    // Wes, the writer: 40 free a week, no demand.
    expect(groupOf(groups, writer)?.totals).toEqual({
      demand_unfilled: 0,
      demand_filled: 0,
      supply_available: 80,
    });
    // The group without a position (the boss, who has no working week) comes last.
    expect(groups.at(-1)?.id).toBeNull();
  });

  it('counts tentative work as filled when asked, and groups by category', async () => {
    const withTentative = await demand('group_by=position&include_tentative=true');
    expect(groupOf(withTentative.groups, designer)?.periods[1]).toMatchObject({
      demand_filled: 30,
      supply_available: 50,
    });

    const byCategory = await demand('group_by=category&granularity=month');
    // Creative holds both designers and the placeholder (its position's category); the writer has none.
    expect(groupOf(byCategory.groups, creative)).toMatchObject({
      name: 'Creative',
      totals: { demand_unfilled: 40, demand_filled: 30, supply_available: 130 },
      periods: [{ from: '2027-03-01', to: '2027-03-14' }],
    });
    expect(groupOf(byCategory.groups, null)?.totals.supply_available).toBe(80);
  });

  it("reconciles supply with the availability read of the group's people", async () => {
    const availability = await board.ok<{ people: { totals: { available: number } }[] }>(
      get(`/v2/availability?position_id=${designer}&from=2027-03-01&to=2027-03-14`),
    );
    const available = availability.people.reduce((sum, person) => sum + person.totals.available, 0);
    const { groups } = await demand('group_by=position');
    expect(groupOf(groups, designer)?.totals.supply_available).toBe(available);
  });

  it('ranks the people who could fill the placeholder by hours covered, then match, with reasons', async () => {
    const answer = await board.ok<{ hours_needed: number; from: string; to: string; people: Candidate[] }>(
      get(`/v2/placeholders/${placeholder}/candidates`),
    );
    // Its window is its bookings': 40 hours, 4 on each weekday. Day by day, each covers the least of
    // their free hours and 4. Dee: 2 a day in week 1 (8 − 6), 4 in week 2: 30. Dan: 4 a day (his
    // tentative work left out): 40. Wes: 40. Dan and Wes cover as much; Dan is a designer.
    expect(answer).toMatchObject({ from: '2027-03-01', to: '2027-03-12', hours_needed: 40 });
    expect(
      answer.people.map((candidate) => [candidate.user_id, candidate.hours_covered, candidate.coverage]),
    ).toEqual([
      [dan, 40, 1],
      [wes, 40, 1],
      [dee, 30, 0.75],
    ]);
    expect(answer.people[2]?.reasons).toEqual({
      position_matched: true,
      category_matched: true,
      labels_matched: [senior],
    });
    expect(answer.people[1]?.reasons).toEqual({
      position_matched: false,
      category_matched: false,
      labels_matched: [],
    });

    // Counting Dan's tentative work, he is free 2 a day in week 2: 30, as Dee; Dee carries the label.
    const tentative = await board.ok<{ people: Candidate[] }>(
      get(`/v2/placeholders/${placeholder}/candidates?include_tentative=true`),
    );
    expect(tentative.people.map((candidate) => [candidate.user_id, candidate.hours_covered])).toEqual([
      [wes, 40],
      [dee, 30],
      [dan, 30],
    ]);
    // A window of the first week only: 20 needed.
    const firstWeek = await board.ok<{ hours_needed: number; people: Candidate[] }>(
      get(`/v2/placeholders/${placeholder}/candidates?from=2027-03-01&to=2027-03-07`),
    );
    expect(firstWeek.hours_needed).toBe(20);
    expect(firstWeek.people.find((candidate) => candidate.user_id === dee)?.hours_covered).toBe(10);
  });

  it('refuses what it cannot answer', async () => {
    expect((await get(`/v2/placeholders/${placeholder}/candidates?from=2027-03-01`)).statusCode).toBe(400);
    expect((await get('/v2/placeholders/00000000-0000-4000-8000-000000000000/candidates')).statusCode).toBe(
      404,
    );
    expect((await get('/v2/demand?from=2027-03-01&to=2028-03-14')).statusCode).toBe(400);
    expect((await get('/v2/demand?from=2027-03-01&to=2027-03-14&group_by=team')).statusCode).toBe(400);
    expect((await get('/v2/demand?from=2027-03-01&to=2027-03-14&granularity=day')).statusCode).toBe(400);
  });
});
