import type { LightMyRequestResponse } from 'fastify';
import type { DataSource } from 'typeorm';
import { startBoard, type Body, type Board } from './support/board-harness';

interface Placeholder {
  id: string;
  name: string;
  position_id: number | null;
  category_id: number | null;
  project_id: number | null;
  label_ids: number[];
  version: number;
  created_at: string;
  updated_at: string;
}

interface Allocation {
  id: string;
  user_id: number | null;
  placeholder_id: string | null;
  project_id: number;
  total_hours: number;
  version: number;
  days?: { date: string; hours: number; pinned: boolean }[];
  over_allocated_days?: unknown[];
}

/**
 * Placeholders (issue 39, first step): a role booked before knowing who. Created, read, changed and
 * deleted with the v2 conventions; booked like a person but on the standard week with no capacity
 * limit; never seen by the interface's routes nor by people's availability; in the planner's feed.
 */
describe('planner v2: placeholders and their bookings (e2e)', () => {
  let board: Board;
  let plannerDb: DataSource;
  let designer: number;
  let writer: number;
  let creative: number;
  let content: number;
  let senior: number;
  let projectLabel: number;

  const newPlaceholder = async (body: Body): Promise<{ placeholder: Placeholder; etag: string }> => {
    const answer = await board.call('POST', '/v2/placeholders', body);
    expect({ status: answer.statusCode, body: answer.json<Body>() }).toMatchObject({ status: 201 });
    return { placeholder: answer.json<Placeholder>(), etag: answer.headers.etag as string };
  };
  const book = (body: Body) => board.call('POST', '/v2/allocations', body);
  const booked = async (body: Body): Promise<{ allocation: Allocation; etag: string }> => {
    const answer = await book(body);
    expect({ status: answer.statusCode, body: answer.json<Body>() }).toMatchObject({ status: 201 });
    return { allocation: answer.json<Allocation>(), etag: answer.headers.etag as string };
  };

  beforeAll(async () => {
    board = await startBoard(['Placed', 'Elsewhere']);
    const { main, created } = board;
    plannerDb = await board.plannerDb();
    creative = await created(main.call('POST', '/position-categories', { name: 'Creative' }));
    content = await created(main.call('POST', '/position-categories', { name: 'Content' }));
    designer = await created(main.call('POST', '/positions', { name: 'Designer', category_id: creative }));
    writer = await created(main.call('POST', '/positions', { name: 'Writer' }));
    senior = await created(main.call('POST', '/labels', { name: 'Senior', model: 'user' }));
    projectLabel = await created(main.call('POST', '/labels', { name: 'Pipeline', model: 'project' }));
  });

  afterAll(async () => {
    await board?.close();
  });

  it('creates with Location and ETag, reads (304), changes and deletes with If-Match (428, 412)', async () => {
    const project = await board.newProject('Placeholders: crud');
    const answer = await board.call('POST', '/v2/placeholders', {
      name: 'Senior designer',
      position_id: designer,
      project_id: project,
      label_ids: [senior, senior],
    });
    expect(answer.statusCode).toBe(201);
    const placeholder = answer.json<Placeholder>();
    expect(answer.headers.location).toBe(`/v2/placeholders/${placeholder.id}`);
    expect(answer.headers.etag).toMatch(new RegExp(`^"${placeholder.version}-`));
    // The category is the position's when left out; labels are kept once each.
    expect(placeholder).toMatchObject({
      name: 'Senior designer',
      position_id: designer,
      category_id: creative,
      project_id: project,
      label_ids: [senior],
      version: 1,
    });

    const read = await board.call('GET', `/v2/placeholders/${placeholder.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(placeholder);
    expect(
      (
        await board.call('GET', `/v2/placeholders/${placeholder.id}`, undefined, {
          'if-none-match': read.headers.etag as string,
        })
      ).statusCode,
    ).toBe(304);

    const unconditional = await board.call('PATCH', `/v2/placeholders/${placeholder.id}`, {
      name: 'Lead designer',
    });
    board.expectError(unconditional, 428, 'PreconditionRequiredError');
    const changed = await board.call(
      'PATCH',
      `/v2/placeholders/${placeholder.id}`,
      { name: 'Lead designer', position_id: writer, category_id: content, label_ids: [] },
      { 'if-match': read.headers.etag as string },
    );
    expect(changed.statusCode).toBe(200);
    expect(changed.json<Placeholder>()).toMatchObject({
      name: 'Lead designer',
      position_id: writer,
      category_id: content,
      project_id: project,
      label_ids: [],
      version: 2,
    });
    expect(changed.headers.etag).toMatch(/^"2-/);
    const stale = await board.call(
      'PATCH',
      `/v2/placeholders/${placeholder.id}`,
      { name: 'Too late' },
      { 'if-match': read.headers.etag as string },
    );
    expect(stale.statusCode).toBe(412);
    expect(stale.json<{ current: Placeholder }>().current).toMatchObject({
      name: 'Lead designer',
      version: 2,
    });

    board.expectError(
      await board.call('DELETE', `/v2/placeholders/${placeholder.id}`),
      428,
      'PreconditionRequiredError',
    );
    const removed = await board.call('DELETE', `/v2/placeholders/${placeholder.id}`, undefined, {
      'if-match': changed.headers.etag as string,
    });
    expect(removed.statusCode).toBe(204);
    board.expectError(
      await board.call('GET', `/v2/placeholders/${placeholder.id}`),
      404,
      'PlaceholderNotFoundError',
    );

    // Its life in the planner's feed, as kind `placeholders`, with its project and no user.
    const events = (await board.feed()).filter((event) => event.id === placeholder.id);
    expect(events.map((event) => [event.entity, event.kind, event.project_id, event.user_id])).toEqual([
      ['placeholders', 'created', project, null],
      ['placeholders', 'updated', project, null],
      ['placeholders', 'deleted', project, null],
    ]);
    expect(events[1]?.changed_fields).toEqual(['category_id', 'label_ids', 'name', 'position_id']);
  });

  it('lists by name a cursor page at a time, filtered by project, position and category', async () => {
    const project = await board.newProject('Placeholders: list');
    const names = ['Copywriter', 'Art director', 'Designer A', 'Designer B'];
    for (const name of names) {
      await newPlaceholder({
        name,
        project_id: project,
        position_id: name.startsWith('Designer') ? designer : writer,
      });
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: LightMyRequestResponse = await board.call(
        'GET',
        `/v2/placeholders?project_ids=${project}&limit=3${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(page.statusCode).toBe(200);
      const body = page.json<{ data: Placeholder[]; next_cursor: string | null; has_more: boolean }>();
      seen.push(...body.data.map((placeholder) => placeholder.name));
      expect(body.has_more).toBe(body.next_cursor !== null);
      cursor = body.next_cursor;
    } while (cursor);
    expect(seen).toEqual([...names].sort());

    const designers = await board.call(
      'GET',
      `/v2/placeholders?project_ids=${project}&position_ids=${designer}`,
    );
    expect(designers.json<{ data: Placeholder[] }>().data.map((placeholder) => placeholder.name)).toEqual([
      'Designer A',
      'Designer B',
    ]);
    const byCategory = await board.call(
      'GET',
      `/v2/placeholders?project_ids=${project}&category_ids=${creative}`,
    );
    expect(byCategory.json<{ data: Placeholder[] }>().data).toHaveLength(2);
    board.expectError(
      await board.call('GET', '/v2/placeholders?cursor=bm90LWEtY3Vyc29y'),
      400,
      'InvalidPlaceholderError',
    );
  });

  it('refuses what main-api does not have, a bad name, and a category other than the position’s (400)', async () => {
    const otherCompany = board.main.companies[1];
    const theirPosition = await board.created(
      board.main.call('POST', '/positions', { name: 'Theirs' }, { company: otherCompany.companyId }),
    );
    const refused = async (body: Body, error: string, message: RegExp) =>
      board.expectError(await board.call('POST', '/v2/placeholders', body), 400, error, message);

    await refused(
      { name: 'Ghost', position_id: 999_999 },
      'InvalidPlaceholderError',
      /position_id: position 999999/,
    );
    await refused({ name: 'Theirs', position_id: theirPosition }, 'InvalidPlaceholderError', /position_id/);
    await refused({ name: 'Ghost', category_id: 999_999 }, 'InvalidPlaceholderError', /category_id/);
    await refused(
      { name: 'Mixed', position_id: designer, category_id: content },
      'InvalidPlaceholderError',
      /is in category/,
    );
    await refused(
      { name: 'Labelled', label_ids: [projectLabel] },
      'InvalidPlaceholderError',
      /not a user label/,
    );
    await refused({ name: 'Nowhere', project_id: 999_999 }, 'ProjectNotFoundError', /999999/);
    await refused({ name: 'x'.repeat(101) }, 'InvalidAllocationError', /name/);
    await refused({ name: '   ' }, 'InvalidAllocationError', /blank/);
    await refused({ position_id: designer }, 'InvalidAllocationError', /name/);
    const count = await plannerDb.query<{ count: number }[]>(
      "SELECT count(*)::int AS count FROM planner.placeholders WHERE name IN ('Ghost', 'Theirs', 'Mixed', 'Labelled', 'Nowhere')",
    );
    expect(count[0]?.count).toBe(0);
  });

  it("reads and writes only the caller's company's placeholders, and roles 4-5 only read", async () => {
    const { placeholder } = await newPlaceholder({ name: 'Ours' });
    const other = board.main.companies[1];
    const asOther = { authorization: board.tokenOf(other.companyId, other.userId) };
    board.expectError(
      await board.call('GET', `/v2/placeholders/${placeholder.id}`, undefined, asOther),
      404,
      'PlaceholderNotFoundError',
    );
    expect(
      (await board.call('GET', '/v2/placeholders', undefined, asOther)).json<{ data: Placeholder[] }>().data,
    ).toEqual([]);
    const theirProject = await board.created(
      board.main.call(
        'POST',
        '/projects',
        {
          name: 'Theirs',
          client_id: await board.created(
            board.main.call('POST', '/clients', { name: 'T' }, { company: other.companyId }),
          ),
        },
        { company: other.companyId },
      ),
    );
    board.expectError(
      await board.call(
        'POST',
        '/v2/allocations',
        {
          placeholder_id: placeholder.id,
          project_id: theirProject,
          from: '2027-05-03',
          to: '2027-05-07',
          hours_per_day: 4,
        },
        asOther,
      ),
      400,
      'PlaceholderNotFoundError',
      /placeholder_id/,
    );

    const collaborator = { authorization: board.tokenOf(board.companyId, board.bossId, 4) };
    expect(
      (await board.call('GET', `/v2/placeholders/${placeholder.id}`, undefined, collaborator)).statusCode,
    ).toBe(200);
    expect((await board.call('POST', '/v2/placeholders', { name: 'Nope' }, collaborator)).statusCode).toBe(
      403,
    );
  });

  it('books a placeholder Monday to Friday with no capacity limit, once per project and day', async () => {
    const project = await board.newProject('Placeholders: booking');
    const elsewhere = await board.newProject('Placeholders: elsewhere');
    const { placeholder } = await newPlaceholder({ name: 'Designer to hire', position_id: designer });
    const settings = await board.call('GET', '/v2/planning-settings');
    expect(settings.statusCode).toBe(200);

    // 12 hours a day, more than any person's day, under reject: no capacity, nothing over.
    const { allocation, etag } = await booked({
      placeholder_id: placeholder.id,
      project_id: project,
      from: '2027-05-03',
      to: '2027-05-09',
      hours_per_day: 12,
      capacity_policy: 'reject',
    });
    expect(allocation).toMatchObject({
      user_id: null,
      placeholder_id: placeholder.id,
      total_hours: 60,
      over_allocated_days: [],
    });
    expect(allocation.days?.map((day) => day.hours)).toEqual([12, 12, 12, 12, 12, 0, 0]);
    // A total spreads evenly over the weekdays of the standard week.
    const { allocation: total } = await booked({
      placeholder_id: placeholder.id,
      project_id: elsewhere,
      from: '2027-05-03',
      to: '2027-05-09',
      total_hours: 30,
      capacity_policy: 'reject',
    });
    expect(total.days?.map((day) => day.hours)).toEqual([6, 6, 6, 6, 6, 0, 0]);

    board.expectError(
      await book({
        placeholder_id: placeholder.id,
        project_id: project,
        from: '2027-05-07',
        to: '2027-05-14',
        hours_per_day: 2,
      }),
      409,
      'AllocationAlreadyExistInDatesRangeError',
      /Placeholder .* from 2027-05-03 to 2027-05-09/,
    );
    board.expectError(
      await book({
        placeholder_id: placeholder.id,
        project_id: project,
        from: '2027-06-07',
        to: '2027-06-11',
        percent_of_capacity: 50,
      }),
      400,
      'InvalidAllocationError',
      /percent_of_capacity/,
    );

    // Read back, listed by placeholder, and moved within its kind only.
    const listed = await board.call('GET', `/v2/allocations?placeholder_ids=${placeholder.id}&include=days`);
    expect(
      listed
        .json<{ data: Allocation[] }>()
        .data.map((each) => each.id)
        .sort(),
    ).toEqual([allocation.id, total.id].sort());
    board.expectError(
      await board.call(
        'PATCH',
        `/v2/allocations/${allocation.id}`,
        { user_id: board.bossId },
        { 'if-match': etag },
      ),
      400,
      'InvalidAllocationError',
      /filling the placeholder/,
    );
    const moved = await board.call(
      'PATCH',
      `/v2/allocations/${allocation.id}`,
      { from: '2027-05-10', to: '2027-05-16' },
      { 'if-match': etag },
    );
    expect(moved.statusCode).toBe(200);
    expect(moved.json<Allocation>()).toMatchObject({ placeholder_id: placeholder.id, total_hours: 60 });

    const person = await board.newPerson();
    const { allocation: personal, etag: personalTag } = await booked({
      user_id: person,
      project_id: project,
      from: '2027-05-03',
      to: '2027-05-07',
      hours_per_day: 4,
    });
    board.expectError(
      await board.call(
        'PATCH',
        `/v2/allocations/${personal.id}`,
        { placeholder_id: placeholder.id },
        { 'if-match': personalTag },
      ),
      400,
      'InvalidAllocationError',
      /books a person/,
    );

    // The allocation events of a placeholder's booking name no user.
    const events = (await board.feed()).filter(
      (event) => event.entity === 'allocations' && event.id === allocation.id,
    );
    expect(events.map((event) => [event.kind, event.user_id, event.project_id])).toEqual([
      ['created', null, project],
      ['updated', null, project],
    ]);
  });

  it('books exactly one of a person and a placeholder, of the company (400)', async () => {
    const project = await board.newProject('Placeholders: exactly one');
    const { placeholder } = await newPlaceholder({ name: 'Either' });
    const range = { project_id: project, from: '2027-05-03', to: '2027-05-07', hours_per_day: 4 };
    board.expectError(
      await book({ ...range, user_id: await board.newPerson(), placeholder_id: placeholder.id }),
      400,
      'InvalidAllocationError',
      /exactly one of user_id/,
    );
    board.expectError(await book(range), 400, 'InvalidAllocationError', /exactly one of user_id/);
    board.expectError(
      await book({ ...range, placeholder_id: '00000000-0000-4000-8000-000000000000' }),
      400,
      'PlaceholderNotFoundError',
      /placeholder_id/,
    );
    board.expectError(await book({ ...range, placeholder_id: 'not-a-uuid' }), 400, 'InvalidAllocationError');
  });

  it('refuses to delete a booked placeholder (409), and deletes it once free', async () => {
    const { placeholder, etag } = await newPlaceholder({ name: 'Booked' });
    const { allocation, etag: allocationTag } = await booked({
      placeholder_id: placeholder.id,
      project_id: await board.newProject('Placeholders: in use'),
      from: '2027-05-03',
      to: '2027-05-07',
      hours_per_day: 4,
    });
    board.expectError(
      await board.call('DELETE', `/v2/placeholders/${placeholder.id}`, undefined, { 'if-match': etag }),
      409,
      'PlaceholderInUseError',
    );
    expect(
      (
        await board.call('DELETE', `/v2/allocations/${allocation.id}`, undefined, {
          'if-match': allocationTag,
        })
      ).statusCode,
    ).toBe(204);
    expect(
      (await board.call('DELETE', `/v2/placeholders/${placeholder.id}`, undefined, { 'if-match': etag }))
        .statusCode,
    ).toBe(204);
  });

  it("leaves people's figures as they were: the interface's report and availability never see a placeholder", async () => {
    const project = await board.newProject('Placeholders: people');
    const person = await board.newPerson();
    await booked({
      user_id: person,
      project_id: project,
      from: '2027-09-06',
      to: '2027-09-10',
      hours_per_day: 4,
    });
    const report = async () => {
      const answer = await board.call('GET', `/allocation/getAllocations/${project}`);
      expect(answer.statusCode).toBe(200);
      return answer.json<{ users: { userId: number; allocations: unknown[] }[] }>();
    };
    const availability = async () => {
      const answer = await board.call(
        'GET',
        `/v2/availability?user_ids=${person}&from=2027-09-06&to=2027-09-12&explain=true`,
      );
      expect(answer.statusCode).toBe(200);
      return answer.json<{ people: unknown[] }>().people;
    };
    const [reportBefore, availabilityBefore] = [await report(), await availability()];

    const { placeholder } = await newPlaceholder({ name: 'Hidden', project_id: project });
    await booked({
      placeholder_id: placeholder.id,
      project_id: project,
      from: '2027-09-06',
      to: '2027-09-10',
      hours_per_day: 8,
    });

    const reportAfter = await report();
    expect(reportAfter).toEqual(reportBefore);
    expect(reportAfter.users.map((user) => user.userId)).toEqual([person]);
    expect(await availability()).toEqual(availabilityBefore);
  });

  it('lets exactly one of 10 concurrent overlapping bookings of one placeholder on one project in', async () => {
    const project = await board.newProject('Placeholders: race');
    const { placeholder } = await newPlaceholder({ name: 'Raced' });
    // Ten ranges of ten days, starting a day apart: all of them share 2027-10-13.
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        book({
          placeholder_id: placeholder.id,
          project_id: project,
          from: `2027-10-${String(4 + index).padStart(2, '0')}`,
          to: `2027-10-${String(13 + index).padStart(2, '0')}`,
          hours_per_day: 1 + index,
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([201, ...Array.from({ length: 9 }, () => 409)]);
    for (const answer of answers.filter((each) => each.statusCode === 409)) {
      expect(answer.json<Body>().error).toBe('AllocationAlreadyExistInDatesRangeError');
    }
    const [{ allocations, days }] = await plannerDb.query<{ allocations: number; days: number }[]>(
      `SELECT count(DISTINCT a.id)::int AS allocations, count(d.day)::int AS days
         FROM planner.allocations a LEFT JOIN planner.allocation_days d ON d.allocation_id = a.id
        WHERE a.placeholder_id = $1`,
      [placeholder.id],
    );
    expect({ allocations, days }).toEqual({ allocations: 1, days: 10 });
  });
});
