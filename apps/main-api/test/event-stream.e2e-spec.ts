import { EventStreamReader, openEventStream, signTestToken, type RefusedStream } from '@platform/testing';
import { hashOfStreamTicket } from '@platform/database';
import { ProvisioningService } from '../src/provisioning/provisioning.service';
import { startMainApiTestApp, type MainApiTestApp } from './support/main-api-test-app';

/** The change stream of issue 41, over real HTTP, as a browser's EventSource would use it. */
describe('main-api change stream (Server-Sent Events, e2e)', () => {
  let app: MainApiTestApp;
  let baseUrl: string;
  let collaborator: number;

  beforeAll(async () => {
    app = await startMainApiTestApp(['SA', 'SB'], {
      EVENT_STREAM_HEARTBEAT_SECONDS: '1',
      EVENT_STREAM_CHECK_SECONDS: '1',
      EVENT_STREAMS_PER_COMPANY: '3',
    });
    baseUrl = await app.listen();
    collaborator = (
      await new ProvisioningService(app.dataSource).addUser({
        companyId: app.companies[0].companyId,
        email: 'c@sa.test',
        firstName: 'C',
        lastName: 'S',
        roleId: 4,
      })
    ).userId;
  });

  afterAll(() => app.close());

  const ticketFor = async (body: object = {}, options = {}): Promise<string> => {
    const answer = await app.call('POST', '/events/stream-tickets', body, options);
    expect({ status: answer.statusCode, body: answer.body }).toMatchObject({ status: 201 });
    return answer.json<{ ticket: string }>().ticket;
  };
  const open = (ticket: string, lastEventId?: string): Promise<EventStreamReader | RefusedStream> =>
    openEventStream(`${baseUrl}/v1/events/stream?ticket=${ticket}`, lastEventId);
  const stream = async (ticket: string, lastEventId?: string): Promise<EventStreamReader> => {
    const opened = await open(ticket, lastEventId);
    if (!(opened instanceof EventStreamReader)) {
      throw new Error(`the stream answered ${opened.statusCode}: ${opened.body}`);
    }
    return opened;
  };
  const statusOf = async (ticket: string): Promise<number> => {
    const opened = await open(ticket);
    if (opened instanceof EventStreamReader) {
      opened.close();
      return 200;
    }
    return opened.statusCode;
  };
  const newClient = async (name: string, options = {}) =>
    app.call('POST', '/clients', { name }, options).then((answer) => answer.json<{ id: number }>().id);

  it('sends each change with its cursor as id, resumes after Last-Event-ID exactly once, and filters', async () => {
    const ticket = await ticketFor();
    const projects = await stream(await ticketFor({ entities: ['projects'] }));
    const first = await stream(ticket);
    expect(first.response.headers['content-type']).toMatch(/^text\/event-stream/);

    const northwind = await newClient('Northwind');
    await first.until(() => first.changes.length === 1);
    expect(first.changes[0]).toMatchObject({ entity: 'clients', kind: 'created', id: northwind });
    expect(first.events[0].id).toBe(first.changes[0].cursor);
    await first.until(() => first.comments.includes('heartbeat'), 3000);

    // The connection drops; two changes happen; the browser reconnects with the same URL and its last id.
    first.close();
    const missed = [await newClient('Contoso'), await newClient('Fabrikam')];
    const resumed = await stream(ticket, first.events[0].id);
    await resumed.until(() => resumed.changes.length === 2);
    await newClient('Globex');
    await resumed.until(() => resumed.changes.length === 3);
    expect(resumed.changes.map((change) => change.id).slice(0, 2)).toEqual(missed);
    expect(new Set(resumed.changes.map((change) => change.cursor)).size).toBe(3);

    // Only projects on the filtered stream: the clients never reach it.
    const project = await app
      .call('POST', '/projects', { name: 'Launch', client_id: northwind })
      .then((answer) => answer.json<{ id: number }>().id);
    await projects.until(() => projects.changes.length === 1);
    expect(projects.changes[0]).toMatchObject({ entity: 'projects', id: project });
    // Another company's changes never reach this company's streams.
    const elsewhere = await newClient('Elsewhere', { company: app.companies[1].companyId });
    const last = await newClient('Last');
    await resumed.until(() =>
      resumed.changes.some((change) => change.entity === 'clients' && change.id === last),
    );
    expect(
      resumed.changes.filter((change) => change.entity === 'clients').map((change) => change.id),
    ).not.toContain(elsewhere);
    resumed.close();
    projects.close();
  });

  it('refuses a ticket in use, an unknown one, a stale one, and past the company cap (503, Retry-After)', async () => {
    const ticket = await ticketFor();
    const held = await stream(ticket);
    expect(await statusOf(ticket)).toBe(401);
    expect(await statusOf('x'.repeat(43))).toBe(401);
    const stale = await ticketFor();
    await app.dataSource.query(
      `UPDATE event_stream_tickets SET open_by = now() - interval '1 second' WHERE first_opened_at IS NULL`,
    );
    expect(await statusOf(stale)).toBe(401);
    expect((await app.call('POST', '/events/stream-tickets', { entities: ['nothing'] })).statusCode).toBe(
      400,
    );
    expect((await app.call('POST', '/events/stream-tickets', {}, { role: 6 })).statusCode).toBe(403);

    const others = [await stream(await ticketFor()), await stream(await ticketFor())];
    const refused = await open(await ticketFor());
    expect(refused).not.toBeInstanceOf(EventStreamReader);
    expect((refused as RefusedStream).statusCode).toBe(503);
    expect((refused as RefusedStream).headers['retry-after']).toBe('5');
    for (const reader of [held, ...others]) {
      reader.close();
    }
  });

  it('counts the company cap on every replica, and holds it under parallel opens', async () => {
    const company = { company: app.companies[1].companyId };
    const tickets = await Promise.all(Array.from({ length: 6 }, () => ticketFor({}, company)));
    const opened = await Promise.all(tickets.map((ticket) => open(ticket)));
    const readers = opened.filter((answer) => answer instanceof EventStreamReader);
    const refusals = opened.filter(
      (answer): answer is RefusedStream => !(answer instanceof EventStreamReader),
    );
    expect(readers).toHaveLength(3);
    expect(refusals.map((answer) => [answer.statusCode, answer.body.includes('your company')])).toEqual(
      Array.from({ length: 3 }, () => [503, true]),
    );
    for (const reader of readers) {
      reader.close();
    }
    const held = `SELECT count(*)::int AS n FROM event_stream_tickets WHERE company_id = $1 AND held_until > now()`;
    await waitFor(async () => (await app.dataSource.query(held, [company.company]))[0].n === 0);

    // Another replica's connections hold their tickets as this one's do: three of them fill the cap here.
    const elsewhere = await Promise.all(Array.from({ length: 3 }, () => ticketFor({}, company)));
    await app.dataSource.query(
      `UPDATE event_stream_tickets SET first_opened_at = now(), held_until = now() + interval '75 seconds' WHERE ticket_hash = ANY($1)`,
      [elsewhere.map(hashOfStreamTicket)],
    );
    const next = await ticketFor({}, company);
    expect(await statusOf(next)).toBe(503);
    // That replica dies: its holds lapse unrenewed, and the company has room again.
    await app.dataSource.query(
      `UPDATE event_stream_tickets SET held_until = now() - interval '1 second' WHERE ticket_hash = ANY($1)`,
      [elsewhere.map(hashOfStreamTicket)],
    );
    expect(await statusOf(next)).toBe(200);
  });

  it('ends the stream when the login is revoked and when the token expires', async () => {
    const options = { role: 4, subject: `user:${collaborator}` };
    const revoked = await stream(await ticketFor({}, options));
    // Other logins, of this company and another, checked in the same question: they live on.
    const bystanders = [
      await stream(await ticketFor()),
      await stream(await ticketFor({}, { company: app.companies[1].companyId })),
    ];
    await app.dataSource.query('UPDATE users SET role_id = 5 WHERE id = $1', [collaborator]);
    await revoked.until(() => revoked.ended, 5000);
    expect(revoked.events.at(-1)).toEqual({ event: 'end', data: { reason: 'revoked' } });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(bystanders.map((reader) => reader.ended)).toEqual([false, false]);
    for (const reader of bystanders) {
      reader.close();
    }

    const shortToken = signTestToken({
      keys: app.keys,
      companyId: app.companies[0].companyId,
      subject: `user:${app.companies[0].userId}`,
      expiresIn: 2,
    });
    const ticket = await ticketFor({}, { headers: { authorization: `Bearer ${shortToken}` } });
    const expiring = await stream(ticket);
    await expiring.until(() => expiring.ended, 5000);
    expect(expiring.events.at(-1)).toEqual({ event: 'end', data: { reason: 'expired' } });
    expect(await statusOf(ticket)).toBe(401);
  });

  it('answers the feed 410 as an event when Last-Event-ID is past retention', async () => {
    const ticket = await ticketFor();
    await app.dataSource.query(
      `INSERT INTO change_feed_watermarks (company_id, pruned_through) VALUES ($1, 1000000)
       ON CONFLICT (company_id) DO UPDATE SET pruned_through = 1000000`,
      [app.companies[1].companyId],
    );
    const other = await ticketFor(
      {},
      { company: app.companies[1].companyId, subject: `user:${app.companies[1].userId}` },
    );
    const gone = await stream(other, '5');
    await gone.until(() => gone.ended);
    expect(gone.events).toEqual([
      {
        event: 'gone',
        data: expect.objectContaining({ status: 410, message: expect.stringMatching(/CursorExpired/) }),
      },
    ]);
    // `after` on a new stream acts as Last-Event-ID does on a reconnect.
    const byQuery = await open(
      `${await ticketFor({}, { company: app.companies[1].companyId, subject: `user:${app.companies[1].userId}` })}&after=5`,
    );
    expect(byQuery).toBeInstanceOf(EventStreamReader);
    await (byQuery as EventStreamReader).until(() => (byQuery as EventStreamReader).ended);
    expect((byQuery as EventStreamReader).events.map((event) => event.event)).toEqual(['gone']);
    // This company's feed was not pruned: the same Last-Event-ID resumes.
    const kept = await stream(ticket, '1');
    expect(kept.ended).toBe(false);
    kept.close();
  });
});

/** Polls `done` until it holds, or fails after `ms`. */
async function waitFor(done: () => Promise<boolean>, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > until) {
      throw new Error(`not done within ${ms} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
