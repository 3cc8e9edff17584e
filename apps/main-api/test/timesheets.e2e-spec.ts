import type { LightMyRequestResponse } from 'fastify';
import { ProvisioningService } from '../src/provisioning/provisioning.service';
import { startMainApiTestApp, type MainApiTestApp } from './support/main-api-test-app';

interface Entry {
  id: number;
  version: number;
  status: string;
  billable: boolean;
  hours: number;
  date: string;
  review_note: string | null;
}

interface Timesheet {
  status: string;
  total_hours: number;
  billable_hours: number;
  entries: Entry[];
}

interface BatchAnswer {
  committed: boolean;
  results: { status: number; body: Entry }[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Time that bills (issue 40): entries with billing fields, weekly approval, the period lock, imports. */
describe('main-api time entries, timesheets and the period lock (e2e)', () => {
  let app: MainApiTestApp;
  let clientId: number;
  let worker: number;
  let other: number;

  beforeAll(async () => {
    app = await startMainApiTestApp(['TA', 'TB']);
    clientId = (await app.call('POST', '/clients', { name: 'C' })).json<{ id: number }>().id;
    const provisioning = new ProvisioningService(app.dataSource);
    const person = (email: string) =>
      provisioning.addUser({
        companyId: app.companies[0].companyId,
        email,
        firstName: 'W',
        lastName: 'K',
        roleId: 4,
      });
    worker = (await person('w@ta.test')).userId;
    other = (await person('o@ta.test')).userId;
  });

  afterAll(() => app.close());

  // A getter: `worker` exists once beforeAll has run.
  const asWorkerOf = () => ({ role: 4, subject: `user:${worker}` });
  const json = <T>(answer: LightMyRequestResponse, status: number): T => {
    if (answer.statusCode !== status) {
      throw new Error(`expected ${status}, got ${answer.statusCode}: ${answer.body}`);
    }
    return answer.json<T>();
  };
  const project = async (billable = true) =>
    json<{ id: number }>(
      await app.call('POST', '/projects', { name: 'P', client_id: clientId, billable }),
      201,
    ).id;
  const log = async (body: object, options = {}) =>
    json<Entry>(await app.call('POST', '/time-entries', body, options), 201);
  const expectError = (answer: LightMyRequestResponse, status: number, name: RegExp) => {
    expect(answer.statusCode).toBe(status);
    expect(answer.json<{ message: string }>().message).toMatch(name);
  };

  it('logs billable time with a note; the interface route keeps its fields', async () => {
    const billed = await project(true);
    const internal = await project(false);

    const entry = await log({
      user_id: worker,
      project_id: billed,
      date: '2026-03-02',
      hours: 2,
      note: 'Kick-off',
    });
    const unbilled = await log({ user_id: worker, project_id: internal, date: '2026-03-02', hours: 1 });
    const viaInterface = json<Record<string, unknown>>(
      await app.call('POST', '/hours', {
        user_id: worker,
        project_id: internal,
        date: '2026-03-03',
        hours: 1,
      }),
      201,
    );

    expect(entry).toMatchObject({ note: 'Kick-off', billable: true, status: 'draft', source: null });
    expect(unbilled.billable).toBe(false);
    expect(Object.keys(viaInterface).sort()).toEqual(
      [
        'created_at',
        'date',
        'hours',
        'id',
        'project_id',
        'task_id',
        'user_id',
        'user_position_id',
        'version',
      ].sort(),
    );
    const detail = json<Entry>(await app.call('GET', `/time-entries/${String(viaInterface.id)}`), 200);
    expect(detail).toMatchObject({ billable: false, status: 'draft' });
    const listed = json<Entry[]>(
      await app.call('GET', `/time-entries?from=2026-03-03&to=2026-03-03&project_ids=${internal}&page=false`),
      200,
    );
    expect(listed.map((row) => row.id)).toEqual([viaInterface.id]);
    expectError(await app.call('GET', '/time-entries?from=2026-03-04&to=2026-03-01'), 400, /validation/i);
    expectError(
      await app.call('POST', '/time-entries', {
        user_id: worker,
        project_id: billed,
        date: '2026-03-02',
        hours: 1,
        source: 'harvest',
      }),
      400,
      /validation/i,
    );
  });

  it('submits, approves and rejects a week with the roles of leaves', async () => {
    const projectId = await project();
    const monday = await log(
      { user_id: worker, project_id: projectId, date: '2026-04-06', hours: 8 },
      asWorkerOf(),
    );
    const friday = await log(
      { user_id: worker, project_id: projectId, date: '2026-04-10', hours: 4 },
      asWorkerOf(),
    );
    await log({ user_id: worker, project_id: projectId, date: '2026-04-13', hours: 1 }, asWorkerOf()); // next week

    expect(json<Timesheet>(await app.call('GET', `/timesheets/${worker}/2026-W15`), 200)).toMatchObject({
      status: 'draft',
      total_hours: 12,
      billable_hours: 12,
    });
    expectError(await app.call('POST', `/timesheets/${other}/2026-W15/submit`, {}, asWorkerOf()), 403, /own/);
    expectError(
      await app.call('POST', `/timesheets/${worker}/2026-W15/approve`, {}),
      409,
      /TimesheetNotReady/,
    );
    const submitted = json<Timesheet>(
      await app.call('POST', `/timesheets/${worker}/2026-W15/submit`, {}, asWorkerOf()),
      200,
    );
    expect(submitted.status).toBe('submitted');
    expect(submitted.entries).toHaveLength(2);
    expect(
      (await app.call('POST', `/timesheets/${worker}/2026-W15/approve`, {}, asWorkerOf())).statusCode,
    ).toBe(403);
    const approved = json<Timesheet>(
      await app.call('POST', `/timesheets/${worker}/2026-W15/approve`, {}),
      200,
    );
    expect(approved.entries.map((entry) => entry.status)).toEqual(['approved', 'approved']);
    expect(json<Timesheet>(await app.call('GET', `/timesheets/${worker}/2026-W16`), 200).status).toBe(
      'draft',
    );

    // A note does not change what was reviewed; hours do, and the entry is draft again.
    const noted = json<Entry>(
      await app.call('PUT', `/time-entries/${monday.id}`, { note: 'Design' }, asWorkerOf()),
      200,
    );
    expect(noted.status).toBe('approved');
    const changed = json<Entry>(
      await app.call('PUT', `/hours/${friday.id}`, { hours: 5 }, asWorkerOf()),
      200,
    );
    expect(changed).not.toHaveProperty('status');
    expect(json<Entry>(await app.call('GET', `/time-entries/${friday.id}`), 200).status).toBe('draft');

    const rejected = json<Timesheet>(
      await app.call('POST', `/timesheets/${worker}/2026-W15/reject`, { note: 'Split by task' }),
      200,
    );
    expect(rejected.status).toBe('rejected');
    expect(rejected.entries.find((entry) => entry.id === monday.id)).toMatchObject({
      status: 'rejected',
      review_note: 'Split by task',
    });
    // The rejected one and the draft one go back together.
    expect(
      json<Timesheet>(
        await app.call('POST', `/timesheets/${worker}/2026-W15/submit`, {}, asWorkerOf()),
        200,
      ).entries.map((entry) => entry.status),
    ).toEqual(['submitted', 'submitted']);

    expectError(await app.call('GET', `/timesheets/${worker}/2025-W53`), 400, /validation/i);
    expect(
      (
        await app.call('GET', `/timesheets/${worker}/2026-W15`, undefined, {
          company: app.companies[1].companyId,
        })
      ).statusCode,
    ).toBe(404);
  });

  it('refuses every write on or before the lock, whichever route makes it', async () => {
    const projectId = await project();
    const early = await log({ user_id: worker, project_id: projectId, date: '2026-05-04', hours: 3 });
    const late = await log({ user_id: worker, project_id: projectId, date: '2026-06-01', hours: 3 });

    expect(
      (await app.call('PUT', '/timesheet-lock', { locked_until: '2026-05-31' }, { role: 3 })).statusCode,
    ).toBe(403);
    expect(
      json<{ locked_until: string }>(
        await app.call('PUT', '/timesheet-lock', { locked_until: '2026-05-31' }),
        200,
      ),
    ).toMatchObject({
      locked_until: '2026-05-31',
    });

    expectError(
      await app.call('POST', '/hours', {
        user_id: worker,
        project_id: projectId,
        date: '2026-05-31',
        hours: 1,
      }),
      409,
      /TimesheetLocked/,
    );
    expectError(await app.call('PUT', `/hours/${early.id}`, { hours: 4 }), 409, /TimesheetLocked/);
    expectError(
      await app.call('PUT', `/time-entries/${late.id}`, { date: '2026-05-29' }),
      409,
      /TimesheetLocked/,
    );
    expectError(await app.call('DELETE', `/hours/${early.id}`), 409, /TimesheetLocked/);
    expectError(await app.call('POST', `/timesheets/${worker}/2026-W19/submit`, {}), 409, /TimesheetLocked/);
    expect((await app.call('PUT', `/time-entries/${late.id}`, { hours: 4 })).statusCode).toBe(200);
    // Another company's time is not locked by this one's lock.
    expect(
      json<{ locked_until: null }>(
        await app.call('GET', '/timesheet-lock', undefined, { company: app.companies[1].companyId }),
        200,
      ).locked_until,
    ).toBeNull();

    json(await app.call('PUT', '/timesheet-lock', { locked_until: null }), 200);
    expect((await app.call('PUT', `/hours/${early.id}`, { hours: 4 })).statusCode).toBe(200);
  });

  it('a lock being set waits for the writes in flight, and a write waits for the lock', async () => {
    const projectId = await project();
    const companyId = app.companies[0].companyId;
    // A write in flight on a day the lock is about to cover: the lock waits for its commit.
    const writer = app.dataSource.createQueryRunner();
    await writer.connect();
    await writer.startTransaction();
    await writer.query(
      `INSERT INTO time_entries (company_id, user_id, project_id, date, hours) VALUES ($1, $2, $3, '2026-07-01', 2)`,
      [companyId, worker, projectId],
    );
    let lockAnswered = false;
    const locking = app.call('PUT', '/timesheet-lock', { locked_until: '2026-07-31' }).then((answer) => {
      lockAnswered = true;
      return answer;
    });
    await sleep(400);
    expect(lockAnswered).toBe(false);
    await writer.commitTransaction();
    expect((await locking).statusCode).toBe(200);

    // A lock being moved (in flight): a write waits, then reads the new lock.
    await writer.startTransaction();
    await writer.query('SELECT 1 FROM companies WHERE id = $1 FOR UPDATE', [companyId]);
    await writer.query(`UPDATE timesheet_locks SET locked_until = '2026-08-31' WHERE company_id = $1`, [
      companyId,
    ]);
    const writing = app.call('POST', '/hours', {
      user_id: worker,
      project_id: projectId,
      date: '2026-08-15',
      hours: 1,
    });
    await sleep(400);
    await writer.commitTransaction();
    await writer.release();
    expectError(await writing, 409, /TimesheetLocked/);
    json(await app.call('PUT', '/timesheet-lock', { locked_until: null }), 200);
  });

  it('parallel writers against a lock being set: no write on a locked day lands after the lock', async () => {
    const projectId = await project();
    const writes = Array.from({ length: 16 }, (_, index) =>
      app.call('POST', '/hours', {
        user_id: worker,
        project_id: projectId,
        date: '2026-09-10',
        hours: 1 + index / 4,
      }),
    );
    const lock = app.call('PUT', '/timesheet-lock', { locked_until: '2026-09-30' });
    const answers = await Promise.all(writes);
    expect((await lock).statusCode).toBe(200);
    const landed = answers.filter((answer) => answer.statusCode === 201).length;
    const refused = answers.filter((answer) => answer.statusCode === 409).length;
    expect(
      answers.map((answer) => answer.statusCode).filter((status) => status !== 201 && status !== 409),
    ).toEqual([]);
    expect(landed + refused).toBe(16);
    // Every entry that exists on the day is one that was answered 201: nothing landed unreported.
    const [{ count }] = await app.dataSource.query<{ count: string }[]>(
      `SELECT count(*) FROM time_entries WHERE project_id = $1 AND date = '2026-09-10'`,
      [projectId],
    );
    expect(Number(count)).toBe(landed);
    expectError(
      await app.call('POST', '/hours', {
        user_id: worker,
        project_id: projectId,
        date: '2026-09-10',
        hours: 1,
      }),
      409,
      /TimesheetLocked/,
    );
    json(await app.call('PUT', '/timesheet-lock', { locked_until: null }), 200);
  });

  it('imports a batch from a tracker twice without duplicates', async () => {
    const projectId = await project();
    const batch = {
      entries: [
        {
          source: 'harvest',
          external_id: 'H-1',
          user_id: worker,
          project_id: projectId,
          date: '2026-10-05',
          hours: 2,
        },
        {
          source: 'harvest',
          external_id: 'H-2',
          user_id: worker,
          project_id: projectId,
          date: '2026-10-06',
          hours: 3,
          note: 'QA',
        },
        { user_id: other, project_id: projectId, date: '2026-10-06', hours: 5 },
      ],
    };
    const first = json<BatchAnswer>(await app.call('POST', '/hours/batch', batch), 200);
    const second = json<BatchAnswer>(await app.call('POST', '/hours/batch', batch), 200);

    expect(first.results.map((result) => result.status)).toEqual([201, 201, 201]);
    expect(second.results.map((result) => result.status)).toEqual([200, 200, 200]);
    expect(second.results.map((result) => [result.body.id, result.body.version])).toEqual(
      first.results.map((result) => [result.body.id, result.body.version]),
    );
    const count = async () =>
      json<Entry[]>(await app.call('GET', `/time-entries?project_ids=${projectId}&page=false`), 200).length;
    expect(await count()).toBe(3);

    // A changed entry is updated in place; one bad entry in an atomic import saves nothing.
    const changed = json<BatchAnswer>(
      await app.call('POST', '/hours/batch', {
        entries: [
          { ...batch.entries[0], hours: 2.5 },
          { ...batch.entries[2], project_id: 999999 },
        ],
      }),
      409,
    );
    expect(changed.results.map((result) => result.status)).toEqual([200, 400]);
    expect(json<Entry>(await app.call('GET', `/time-entries/${first.results[0].body.id}`), 200).hours).toBe(
      2,
    );
    const partial = await app.call('POST', '/hours/batch', {
      atomic: false,
      entries: [
        { ...batch.entries[0], hours: 2.5 },
        { ...batch.entries[2], project_id: 999999 },
      ],
    });
    expect(partial.statusCode).toBe(207);
    expect(
      json<Entry>(await app.call('GET', `/time-entries/${first.results[0].body.id}`), 200),
    ).toMatchObject({
      hours: 2.5,
      version: first.results[0].body.version + 1,
    });
    expect(await count()).toBe(3);

    // Another company's same key is its own entry; a role 4 imports only their own hours.
    const elsewhere = await app.call(
      'POST',
      '/time-entries/upsert',
      { ...batch.entries[0], user_id: 1, project_id: projectId },
      { company: app.companies[1].companyId },
    );
    expect(elsewhere.statusCode).toBe(400); // the project is not theirs
    expect(
      json<BatchAnswer>(
        await app.call('POST', '/hours/batch', { atomic: false, entries: [batch.entries[2]] }, asWorkerOf()),
        207,
      ).results[0].status,
    ).toBe(403);
  });

  it('parallel imports of one key make one entry', async () => {
    const projectId = await project();
    const entry = {
      source: 'jira',
      external_id: 'J-7',
      user_id: worker,
      project_id: projectId,
      date: '2026-10-20',
      hours: 1,
    };
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => app.call('POST', '/time-entries/upsert', entry)),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([
      200, 200, 200, 200, 200, 200, 200, 200, 200, 201,
    ]);
    expect(new Set(answers.map((answer) => answer.json<Entry>().id)).size).toBe(1);
    // Parallel imports by the person's day too.
    const byDay = { user_id: other, project_id: projectId, date: '2026-10-21', hours: 2 };
    const dayAnswers = await Promise.all(
      Array.from({ length: 6 }, () => app.call('POST', '/time-entries/upsert', byDay)),
    );
    expect(dayAnswers.filter((answer) => answer.statusCode === 201)).toHaveLength(1);
    expect(new Set(dayAnswers.map((answer) => answer.json<Entry>().id)).size).toBe(1);
  });
});
