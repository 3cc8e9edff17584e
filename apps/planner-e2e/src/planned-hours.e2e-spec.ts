import { startBoard, type Board, type Body } from './support/board-harness';

interface PlannedHoursRow {
  project_id: number;
  user_id: number | null;
  placeholder_id: string | null;
  position_id: number | null;
  category_id: number | null;
  period_start: string;
  confirmed_hours: number;
  tentative_hours: number;
}

interface PlannedHours {
  from: string;
  to: string;
  granularity: string;
  rows: PlannedHoursRow[];
}

/**
 * The planned hours main-api's project forecast reads (issue 40): many projects' bookings in one call,
 * summed by person or placeholder and period. March 2027: the 1st and the 29th are Mondays; people
 * work 8 hours Monday to Friday. The window, 2 March to 1 April, cuts bookings at both ends; every
 * figure is worked out by hand in the comments.
 */
describe('planner v2: planned hours of many projects (e2e)', () => {
  let board: Board;
  let creative: number;
  let designer: number;
  let alpha: number;
  let beta: number;
  let gamma: number;
  let ann: number;
  let ben: number;
  let cal: number;
  let placeholder: string;
  let elsewhere: { companyId: number; userId: number; project: number };

  const WINDOW = 'from=2027-03-02&to=2027-04-01';
  const book = (body: Body, authorization?: string) =>
    board.ok(board.call('POST', '/v2/allocations', body, authorization ? { authorization } : undefined), 201);
  const plannedHours = (query: string, authorization?: string) =>
    board.ok<PlannedHours>(
      board.call(
        'GET',
        `/v2/reports/planned-hours?${query}`,
        undefined,
        authorization ? { authorization } : undefined,
      ),
    );
  type Assignee = Pick<PlannedHoursRow, 'user_id' | 'placeholder_id' | 'position_id' | 'category_id'>;
  const person = (userId: number): Assignee => ({
    user_id: userId,
    placeholder_id: null,
    position_id: null,
    category_id: null,
  });
  const seniorDesigner = (): Assignee => ({
    user_id: null,
    placeholder_id: placeholder,
    position_id: designer,
    category_id: creative,
  });
  const row = (
    project: number,
    who: Assignee,
    period: string,
    confirmed: number,
    tentative = 0,
  ): PlannedHoursRow => ({
    project_id: project,
    ...who,
    period_start: period,
    confirmed_hours: confirmed,
    tentative_hours: tentative,
  });
  const daysOfCal = async () => {
    const db = await board.plannerDb();
    const [{ count }] = await db.query<{ count: number }[]>(
      `SELECT count(*)::int AS count FROM planner.allocation_days d
         JOIN planner.allocations a ON a.id = d.allocation_id WHERE a.user_id = $1`,
      [cal],
    );
    return count;
  };

  beforeAll(async () => {
    board = await startBoard(['Forecast', 'Elsewhere']);
    const { main, created } = board;
    creative = await created(main.call('POST', '/position-categories', { name: 'Creative' }));
    designer = await created(main.call('POST', '/positions', { name: 'Designer', category_id: creative }));
    alpha = await board.newProject('Alpha');
    beta = await board.newProject('Beta');
    gamma = await board.newProject('Gamma');
    ann = await board.newPerson('Ann');
    ben = await board.newPerson('Ben');
    cal = await board.newPerson('Cal');
    placeholder = (
      await board.ok<{ id: string }>(
        board.call('POST', '/v2/placeholders', { name: 'Senior designer', position_id: designer }),
        201,
      )
    ).id;

    // Ann on Alpha, 1 to 10 March, 6 a day confirmed, 9 March pinned to 0.
    await book({
      user_id: ann,
      project_id: alpha,
      from: '2027-03-01',
      to: '2027-03-10',
      hours_per_day: 6,
      days: [{ date: '2027-03-09', hours: 0 }],
    });
    // Ann on Beta, 29 March to 2 April, 2 a day tentative (3 days in March, 2 in April).
    await book({
      user_id: ann,
      project_id: beta,
      from: '2027-03-29',
      to: '2027-04-02',
      hours_per_day: 2,
      status: 'tentative',
    });
    // Ann on Alpha again after the window: nothing of it is in the answers.
    await book({ user_id: ann, project_id: alpha, from: '2027-04-05', to: '2027-04-06', hours_per_day: 1 });
    // Ben on Alpha: 10 hours tentative over 3 and 4 March (5 each), then 3 confirmed on 8 March.
    await book({
      user_id: ben,
      project_id: alpha,
      from: '2027-03-03',
      to: '2027-03-04',
      total_hours: 10,
      status: 'tentative',
    });
    await book({ user_id: ben, project_id: alpha, from: '2027-03-08', to: '2027-03-08', hours_per_day: 3 });
    // Ben on Gamma, a project nobody asks for.
    await book({ user_id: ben, project_id: gamma, from: '2027-03-02', to: '2027-03-02', hours_per_day: 8 });
    // The senior designer on Beta, 1 to 5 March, 4 a day confirmed.
    await book({
      placeholder_id: placeholder,
      project_id: beta,
      from: '2027-03-01',
      to: '2027-03-05',
      hours_per_day: 4,
    });
    // Cal on Beta through the interface, last: 12 hours over 15 to 17 March, not planned yet.
    const saved = await board.call('POST', '/allocation/saveAllocation', {
      userId: cal,
      companyId: board.companyId,
      resource: { typeId: 'Project', entityId: beta },
      from: '2027-03-15',
      to: '2027-03-17',
      assignedByUserId: board.bossId,
      allocatedHours: 12,
    });
    expect(saved.statusCode).toBe(200);

    // Another company, with a booking of its own on its own project.
    const other = main.companies[1];
    if (!other) {
      throw new Error('the harness made no second company');
    }
    const otherClient = await created(
      main.call('POST', '/clients', { name: 'Elsewhere client' }, { company: other.companyId }),
    );
    elsewhere = {
      companyId: other.companyId,
      userId: other.userId,
      project: await created(
        main.call(
          'POST',
          '/projects',
          { name: 'Elsewhere site', client_id: otherClient },
          { company: other.companyId },
        ),
      ),
    };
    const otherToken = board.tokenOf(elsewhere.companyId, elsewhere.userId);
    const otherPlaceholder = await board.ok<{ id: string }>(
      board.call('POST', '/v2/placeholders', { name: 'Anyone' }, { authorization: otherToken }),
      201,
    );
    await book(
      {
        placeholder_id: otherPlaceholder.id,
        project_id: elsewhere.project,
        from: '2027-03-02',
        to: '2027-03-02',
        hours_per_day: 5,
      },
      otherToken,
    );
  });

  afterAll(async () => {
    await board?.close();
  });

  it("plans the interface's booking first, then sums each day (the default), ordered as documented", async () => {
    expect(await daysOfCal()).toBe(0);

    const answer = await plannedHours(`project_ids=${beta},${alpha},${alpha}&${WINDOW}`);

    expect(await daysOfCal()).toBe(3);
    expect(answer).toEqual({
      from: '2027-03-02',
      to: '2027-04-01',
      granularity: 'day',
      rows: [
        // Alpha: Ann's 6 a day but on the pinned 9th and the weekend (1 March is before the window);
        // Ben's 5 tentative on the 3rd and 4th, his 3 confirmed on the 8th.
        row(alpha, person(ann), '2027-03-02', 6),
        row(alpha, person(ann), '2027-03-03', 6),
        row(alpha, person(ben), '2027-03-03', 0, 5),
        row(alpha, person(ann), '2027-03-04', 6),
        row(alpha, person(ben), '2027-03-04', 0, 5),
        row(alpha, person(ann), '2027-03-05', 6),
        row(alpha, person(ann), '2027-03-08', 6),
        row(alpha, person(ben), '2027-03-08', 3),
        row(alpha, person(ann), '2027-03-10', 6),
        // Beta: the placeholder's 4 a day from the 2nd; Cal's 12 hours as 4 a day; Ann's 2 tentative
        // up to 1 April (the 2nd is after the window).
        row(beta, seniorDesigner(), '2027-03-02', 4),
        row(beta, seniorDesigner(), '2027-03-03', 4),
        row(beta, seniorDesigner(), '2027-03-04', 4),
        row(beta, seniorDesigner(), '2027-03-05', 4),
        row(beta, person(cal), '2027-03-15', 4),
        row(beta, person(cal), '2027-03-16', 4),
        row(beta, person(cal), '2027-03-17', 4),
        row(beta, person(ann), '2027-03-29', 0, 2),
        row(beta, person(ann), '2027-03-30', 0, 2),
        row(beta, person(ann), '2027-03-31', 0, 2),
        row(beta, person(ann), '2027-04-01', 0, 2),
      ],
    });
  });

  it('sums ISO weeks, each starting on its Monday even where the window cuts it', async () => {
    const answer = await plannedHours(
      `project_ids=${alpha},${beta},${gamma + 1000}&${WINDOW}&granularity=week`,
    );

    expect(answer.granularity).toBe('week');
    expect(answer.rows).toEqual([
      // Week of 1 March: Ann 2nd to 5th (24), Ben 10 tentative. Week of 8 March: Ann 8th and 10th (12), Ben 3.
      row(alpha, person(ann), '2027-03-01', 24),
      row(alpha, person(ben), '2027-03-01', 0, 10),
      row(alpha, person(ann), '2027-03-08', 12),
      row(alpha, person(ben), '2027-03-08', 3),
      // The placeholder 2nd to 5th (16); Cal 12; Ann 29 March to 1 April, 8 tentative.
      row(beta, seniorDesigner(), '2027-03-01', 16),
      row(beta, person(cal), '2027-03-15', 12),
      row(beta, person(ann), '2027-03-29', 0, 8),
    ]);
  });

  it('sums months, confirmed and tentative side by side, people before placeholders', async () => {
    const answer = await plannedHours(`project_ids=${alpha},${beta}&${WINDOW}&granularity=month`);

    expect(answer.rows).toEqual([
      // Ann: 6 working days of 6 in the window (36). Ben: 3 confirmed, 10 tentative.
      row(alpha, person(ann), '2027-03-01', 36),
      row(alpha, person(ben), '2027-03-01', 3, 10),
      // March: Ann 6 tentative (29th to 31st), Cal 12, the placeholder 16; April: Ann's 1st, 2 tentative.
      row(beta, person(ann), '2027-03-01', 0, 6),
      row(beta, person(cal), '2027-03-01', 12),
      row(beta, seniorDesigner(), '2027-03-01', 16),
      row(beta, person(ann), '2027-04-01', 0, 2),
    ]);
  });

  it('answers no rows for projects without bookings in the window', async () => {
    expect(await plannedHours(`project_ids=${gamma + 1000}&${WINDOW}`)).toEqual({
      from: '2027-03-02',
      to: '2027-04-01',
      granularity: 'day',
      rows: [],
    });
    expect((await plannedHours(`project_ids=${alpha}&from=2027-03-06&to=2027-03-07`)).rows).toEqual([]);
  });

  it("shows a company none of another's rows, whatever project ids it asks for", async () => {
    const otherToken = board.tokenOf(elsewhere.companyId, elsewhere.userId);
    const ids = `${alpha},${beta},${gamma},${elsewhere.project}`;

    const theirs = await plannedHours(`project_ids=${ids}&${WINDOW}`, otherToken);
    expect(theirs.rows).toEqual([
      expect.objectContaining({
        project_id: elsewhere.project,
        user_id: null,
        period_start: '2027-03-02',
        confirmed_hours: 5,
      }),
    ]);
    const ours = await plannedHours(`project_ids=${elsewhere.project}&${WINDOW}`);
    expect(ours.rows).toEqual([]);
  });

  it('lets roles 1 to 5 read, not a client (role 6)', async () => {
    const collaborator = board.tokenOf(board.companyId, ann, 5);
    expect(
      (await plannedHours(`project_ids=${alpha}&${WINDOW}&granularity=month`, collaborator)).rows,
    ).toHaveLength(2);
    const asClient = await board.call(
      'GET',
      `/v2/reports/planned-hours?project_ids=${alpha}&${WINDOW}`,
      undefined,
      {
        authorization: board.tokenOf(board.companyId, ann, 6),
      },
    );
    expect(asClient.statusCode).toBe(403);
  });

  it.each([
    ['no project_ids', WINDOW, /project_ids/],
    ['project_ids not ids', `project_ids=1,x&${WINDOW}`, /project_ids/],
    ['a project id of 0', `project_ids=0&${WINDOW}`, /project_ids/],
    [
      '501 project ids',
      `project_ids=${Array.from({ length: 501 }, (_, i) => i + 1).join(',')}&${WINDOW}`,
      /project_ids/,
    ],
    ['no from', 'project_ids=1&to=2027-04-01', /from must be a date/],
    [
      'a from that is no day',
      'project_ids=1&from=2027-02-30&to=2027-04-01',
      /^from must be a real calendar date/,
    ],
    ['a to that is no date', 'project_ids=1&from=2027-03-01&to=tomorrow', /to must be a date/],
    [
      'from after to',
      'project_ids=1&from=2027-04-02&to=2027-04-01',
      /^from \(2027-04-02\) must be on or before to/,
    ],
    [
      'more than 3700 days',
      'project_ids=1&from=2020-01-01&to=2030-02-17',
      /^to \(2030-02-17\) must be within 3700 days/,
    ],
    ['an unknown granularity', `project_ids=1&${WINDOW}&granularity=year`, /granularity/],
  ])('refuses %s (400 naming the field)', async (_case, query, message) => {
    board.expectError(
      await board.call('GET', `/v2/reports/planned-hours?${query}`),
      400,
      'InvalidAllocationError',
      message,
    );
  });

  it('accepts a window of exactly 3700 days', async () => {
    // 2020-01-01 to 2030-02-16 is 3700 days, both included.
    const answer = await plannedHours(`project_ids=${beta}&from=2020-01-01&to=2030-02-16&granularity=month`);
    expect(answer.rows.map((found) => found.period_start)).toEqual([
      '2027-03-01',
      '2027-03-01',
      '2027-03-01',
      '2027-04-01',
    ]);
  });
});
