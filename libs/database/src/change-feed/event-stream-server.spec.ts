import { createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TokenStatusSource, type PrincipalContext } from '@platform/auth';
import { MetricsRegistry } from '@platform/runtime';
import type { ChangedCompaniesWatch } from './changed-companies-watch';
import type { EventStreamBackend } from './event-stream-backend';
import { EventStreamServer } from './event-stream-server';
import type { EventStreamTicketsRepository } from './event-stream-tickets.repository';

/** A token status whose batched answer can be made to fail, as when main-api is unreachable. */
class SwitchableTokenStatus extends TokenStatusSource {
  reachable = true;
  failedChecks = 0;

  isRevoked(): Promise<boolean> {
    return Promise.resolve(false);
  }

  override revokedAmong(tokens: readonly unknown[]): Promise<boolean[]> {
    if (!this.reachable) {
      this.failedChecks += 1;
      return Promise.reject(new Error('main-api unreachable'));
    }
    return Promise.resolve(tokens.map(() => false));
  }
}

// The server's own collaborators, without a database: this spec is about its login checks alone.
const tickets = {
  claim: () =>
    Promise.resolve({
      ticketHash: 'h',
      companyId: 1,
      subject: 'user:1',
      roleId: 1,
      sessionId: null,
      epoch: 0,
      tokenId: 'j',
      tokenExpiresAt: new Date(Date.now() + 3_600_000),
      entities: null,
      projectIds: null,
      sealedToken: null,
    }),
  renew: () => Promise.resolve(),
  release: () => Promise.resolve(),
  latestCursor: () => Promise.resolve('0'),
  prunedThrough: () => Promise.resolve(undefined),
} as unknown as EventStreamTicketsRepository;
const backend = {
  saveTicket: () => Promise.resolve(),
  eventsAfter: () => Promise.resolve([]),
  ticketInvalid: () => new Error('invalid'),
  tooManyStreams: () => new Error('too many'),
  goneBody: () => ({}),
} as EventStreamBackend;
const idleWatch = {
  watch: (position: string, _seconds: number, signal: AbortSignal) =>
    new Promise((resolve) => signal.addEventListener('abort', () => resolve({ position, companies: [] }))),
} as unknown as ChangedCompaniesWatch;

describe('EventStreamServer login checks', () => {
  let status: SwitchableTokenStatus;
  let streams: EventStreamServer;
  let http: Server;
  let url: string;

  beforeEach(async () => {
    status = new SwitchableTokenStatus();
    streams = new EventStreamServer(backend, {
      name: 'EventStreamServerSpec',
      streamPath: '/stream',
      settings: {
        EVENT_STREAMS_PER_COMPANY: 10,
        EVENT_STREAMS_PER_REPLICA: 10,
        EVENT_STREAM_HEARTBEAT_SECONDS: 60,
        EVENT_STREAM_CHECK_SECONDS: 1,
        EVENT_STREAM_BUFFER_KIB: 64,
      },
      keepsToken: false,
      watch: idleWatch,
      tickets,
      principals: {} as PrincipalContext,
      tokenStatus: status,
      metrics: new MetricsRegistry(),
    });
    streams.start();
    http = createServer((_request, response) => {
      void streams.prepare('ticket', undefined).then((start) => start(response, {}));
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/stream`;
  });

  afterEach(async () => {
    await streams.close();
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  });

  /** The stream's text until it ends, and how many checks had failed by then. */
  const readUntilEnd = () =>
    new Promise<{ text: string; failedChecks: number }>((resolve, reject) => {
      get(url, (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ text, failedChecks: status.failedChecks }));
      }).on('error', reject);
    });

  it('ends a stream whose login cannot be checked for two intervals, as a request would be refused', async () => {
    const ended = readUntilEnd();
    // Checks that succeed keep it open.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    status.reachable = false;

    const { text, failedChecks } = await ended;

    expect(text).toContain('event: end\ndata: {"reason":"unverified"}');
    // One failed check is a blip; the stream ends at the second or later.
    expect(failedChecks).toBeGreaterThanOrEqual(2);
  });
});
