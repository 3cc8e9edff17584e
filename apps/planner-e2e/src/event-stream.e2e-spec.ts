import { createHash } from 'node:crypto';
import { EventStreamReader, openEventStream, signTestToken, type RefusedStream } from '@platform/testing';
import { MetricsRegistry } from '@platform/runtime';
import { startBoard, type Board, type Body } from './support/board-harness';

/** A planner change event as the stream sends it (the feed's ChangeEventDto). */
interface PlannerChange {
  cursor: string;
  entity: string;
  kind: string;
  id: string;
  project_id: number | null;
}

/**
 * The planner's change stream of issue 41 (`GET /v2/events/stream`), over real HTTP as a browser's
 * EventSource would use it, with a real main-api behind the planner answering its login checks.
 */
describe('planner change stream (Server-Sent Events, e2e)', () => {
  let board: Board;
  let person: number;
  let project: number;
  let week = 0;

  beforeAll(async () => {
    board = await startBoard(['Stream', 'Elsewhere'], {
      plannerEnv: {
        EVENT_STREAM_HEARTBEAT_SECONDS: '1',
        EVENT_STREAM_CHECK_SECONDS: '1',
        EVENT_STREAMS_PER_COMPANY: '3',
      },
    });
    person = await board.newPerson('Streamed');
    project = await board.newProject('Stream: board');
  });

  afterAll(async () => {
    await board?.close();
  });

  const ticketFor = async (body: Body = {}, authorization?: string): Promise<string> =>
    (
      await board.ok<{ ticket: string; stream_url: string }>(
        board.call('POST', '/v2/events/stream-tickets', body, authorization ? { authorization } : {}),
        201,
      )
    ).ticket;
  const open = (ticket: string, lastEventId?: string) =>
    openEventStream<PlannerChange>(`${board.plannerUrl}/v2/events/stream?ticket=${ticket}`, lastEventId);
  const stream = async (ticket: string, lastEventId?: string): Promise<EventStreamReader<PlannerChange>> => {
    const opened = await open(ticket, lastEventId);
    if (!(opened instanceof EventStreamReader)) {
      throw new Error(`the stream answered ${opened.statusCode}: ${opened.body}`);
    }
    return opened;
  };
  const refusal = async (ticket: string): Promise<RefusedStream> => {
    const opened = await open(ticket);
    if (opened instanceof EventStreamReader) {
      opened.close();
      throw new Error('the stream opened');
    }
    return opened;
  };
  /** A booking of a week of its own (2027-03-01 is a Monday), on `onProject` or the board's project. */
  const book = async (onProject = project): Promise<string> => {
    const monday = new Date(Date.UTC(2027, 2, 1 + 7 * week++));
    const friday = new Date(monday.getTime() + 4 * 86_400_000);
    return (
      await board.ok<{ id: string }>(
        board.call('POST', '/v2/allocations', {
          user_id: person,
          project_id: onProject,
          from: monday.toISOString().slice(0, 10),
          to: friday.toISOString().slice(0, 10),
          hours_per_day: 2,
        }),
        201,
      )
    ).id;
  };

  it('sends a booking as an allocations event with its cursor as id, resumes after Last-Event-ID exactly once, and filters', async () => {
    const ticket = await ticketFor();
    const other = await board.newProject('Stream: other');
    const onProject = await stream(await ticketFor({ project_ids: [other] }));
    const placeholdersOnly = await stream(await ticketFor({ entities: ['placeholders'] }));
    const elsewhere = board.main.companies[1];
    const otherCompany = await stream(
      await ticketFor({}, board.tokenOf(elsewhere.companyId, elsewhere.userId)),
    );
    const first = await stream(ticket);
    expect(first.response.headers['content-type']).toMatch(/^text\/event-stream/);

    const booked = await book();
    await first.until(() => first.changes.length === 1);
    expect(first.changes[0]).toMatchObject({
      entity: 'allocations',
      kind: 'created',
      id: booked,
      project_id: project,
    });
    expect(first.events[0].id).toBe(first.changes[0].cursor);
    await first.until(() => first.comments.includes('heartbeat'), 3000);

    // The connection drops; two bookings happen; the browser reconnects with the same URL and its last id.
    first.close();
    const missed = [await book(), await book()];
    const resumed = await stream(ticket, first.events[0].id);
    await resumed.until(() => resumed.changes.length === 2);
    const after = await book();
    await resumed.until(() => resumed.changes.length === 3);
    expect(resumed.changes.map((change) => change.id)).toEqual([...missed, after]);
    expect(new Set(resumed.changes.map((change) => change.cursor)).size).toBe(3);

    // Only the other project's booking reaches the stream filtered by project.
    const onOther = await book(other);
    await onProject.until(() => onProject.changes.length === 1);
    await resumed.until(() => resumed.changes.length === 4);
    expect(onProject.changes.map((change) => change.id)).toEqual([onOther]);
    // No placeholder changed; another company's stream gets none of this company's bookings.
    expect(placeholdersOnly.changes).toEqual([]);
    expect(otherCompany.changes).toEqual([]);
    for (const reader of [resumed, onProject, placeholdersOnly, otherCompany]) {
      reader.close();
    }
  });

  it('keeps the token only sealed, refuses a ticket in use or tampered with, and answers 503 with Retry-After past the cap', async () => {
    const ticket = await ticketFor();
    const held = await stream(ticket);
    const second = await refusal(ticket);
    expect({ status: second.statusCode, body: JSON.parse(second.body) as Body }).toMatchObject({
      status: 401,
      body: { error: 'StreamTicketInvalidError' },
    });
    expect((await refusal('x'.repeat(43))).statusCode).toBe(401);

    // The row has the ticket's hash and the token encrypted, never either in clear.
    const db = await board.plannerDb();
    const rows = await db.query<{ ticket_hash: string; token_ciphertext: Buffer }[]>(
      'SELECT ticket_hash, token_ciphertext FROM planner.event_stream_tickets',
    );
    const token = board.tokenOf(board.companyId, board.bossId).replace('Bearer ', '');
    expect(rows.map((row) => row.ticket_hash)).toContain(createHash('sha256').update(ticket).digest('hex'));
    for (const row of rows) {
      expect(row.token_ciphertext.toString('latin1')).not.toContain(token.split('.')[1]);
    }
    // An altered seal opens nothing.
    const tampered = await ticketFor();
    await db.query(
      `UPDATE planner.event_stream_tickets SET token_tag = decode(repeat('00', 16), 'hex') WHERE first_opened_at IS NULL`,
    );
    expect((await refusal(tampered)).statusCode).toBe(401);

    const others = [await stream(await ticketFor()), await stream(await ticketFor())];
    const refused = await refusal(await ticketFor());
    expect({ status: refused.statusCode, body: JSON.parse(refused.body) as Body }).toMatchObject({
      status: 503,
      body: { error: 'TooManyStreamsError' },
    });
    expect(refused.headers['retry-after']).toBe('5');
    for (const reader of [held, ...others]) {
      reader.close();
    }
  });

  it('ends the stream when main-api says the login was revoked, and when the token expires', async () => {
    const collaborator = await board.newPerson('Revoked');
    const ticket = await ticketFor({}, board.tokenOf(board.companyId, collaborator, 4));
    const revoked = await stream(ticket);
    // Other logins, of this company and another, asked about in the same request: they live on.
    const elsewhere = board.main.companies[1];
    const bystanders = [
      await stream(await ticketFor()),
      await stream(await ticketFor({}, board.tokenOf(elsewhere.companyId, elsewhere.userId))),
    ];
    await board.main.dataSource.query('UPDATE users SET role_id = 5 WHERE id = $1', [collaborator]);
    // Checked every EVENT_STREAM_CHECK_SECONDS (1 here): ended within a few.
    await revoked.until(() => revoked.ended, 5000);
    expect(revoked.events.at(-1)).toEqual({ event: 'end', data: { reason: 'revoked' } });
    expect((await refusal(ticket)).statusCode).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(bystanders.map((reader) => reader.ended)).toEqual([false, false]);
    for (const reader of bystanders) {
      reader.close();
    }
    // The checks were main-api's batch route: one request for all the logins of the replica.
    const durations = await board.main.service.app
      .get(MetricsRegistry)
      .registry.getSingleMetricAsString('http_request_duration_seconds');
    expect(durations).toMatch(
      /_count\{method="POST",route="\/v1\/oauth\/token-status\/batch",status_code="200"\} [1-9]/,
    );

    const shortToken = signTestToken({
      keys: board.main.keys,
      companyId: board.companyId,
      subject: `user:${board.bossId}`,
      expiresIn: 2,
    });
    const expiringTicket = await ticketFor({}, `Bearer ${shortToken}`);
    const expiring = await stream(expiringTicket);
    await expiring.until(() => expiring.ended, 5000);
    expect(expiring.events.at(-1)).toEqual({ event: 'end', data: { reason: 'expired' } });
    expect((await refusal(expiringTicket)).statusCode).toBe(401);
  });

  it("answers the feed's 410 as an event when Last-Event-ID is past retention", async () => {
    const elsewhere = board.main.companies[1];
    const db = await board.plannerDb();
    await db.query(
      `INSERT INTO planner.change_feed_watermarks (company_id, pruned_through) VALUES ($1, 1000000)
       ON CONFLICT (company_id) DO UPDATE SET pruned_through = 1000000`,
      [elsewhere.companyId],
    );
    const otherToken = board.tokenOf(elsewhere.companyId, elsewhere.userId);
    const gone = await stream(await ticketFor({}, otherToken), '5');
    await gone.until(() => gone.ended);
    expect(gone.events).toEqual([
      {
        event: 'gone',
        data: { error: 'CursorExpiredError', message: expect.stringMatching(/cursor 1000000/) as unknown },
      },
    ]);
    // This company's feed was not pruned: the same Last-Event-ID resumes.
    const kept = await stream(await ticketFor(), '5');
    expect(kept.ended).toBe(false);
    kept.close();
  });
});
