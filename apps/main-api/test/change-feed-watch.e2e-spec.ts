import { randomBytes } from 'node:crypto';
import { signServiceRequest } from '@platform/auth';
import { TEST_CHANGE_ORIGIN_KEY } from '@platform/testing';
import type { LightMyRequestResponse } from 'fastify';
import { Client } from 'pg';
import { startMainApiTestApp, type MainApiTestApp } from './support/main-api-test-app';

interface Watch {
  position: string;
  reset: boolean;
  companies: number[];
}

describe('main-api change feed watch, for the integrations service (e2e)', () => {
  let app: MainApiTestApp;
  let acme: number;
  let globex: number;

  beforeAll(async () => {
    app = await startMainApiTestApp(['Watch A', 'Watch B']);
    [acme, globex] = app.companies.map((company) => company.companyId) as [number, number];
  });

  afterAll(() => app.close());

  const watchAs = (
    signature: string | undefined,
    query: string,
    headers: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> =>
    app.service.app.inject({
      method: 'GET',
      url: `/v1/events/watch${query}`,
      headers: { ...(signature ? { 'x-service-signature': signature } : {}), ...headers },
    });
  const watch = async (after?: string, wait = 0): Promise<Watch> => {
    const query = `?wait=${wait}${after ? `&after=${encodeURIComponent(after)}` : ''}`;
    const response = await watchAs(
      signServiceRequest(TEST_CHANGE_ORIGIN_KEY, 'integrations', 'GET', `/v1/events/watch${query}`),
      query,
    );
    expect(response.statusCode).toBe(200);
    return response.json<Watch>();
  };
  const createClient = async (company: number, name: string): Promise<void> => {
    const response = await app.call('POST', '/clients', { name }, { company });
    expect(response.statusCode).toBe(201);
  };

  it('answers only the integrations service, signed with CHANGE_ORIGIN_KEY; never a company token', async () => {
    const sign = (key: string, service = 'integrations', path = '/v1/events/watch?wait=0', at = Date.now()) =>
      signServiceRequest(key, service, 'GET', path, at);
    const refused = [
      await watchAs(undefined, '?wait=0'),
      await app.call('GET', '/events/watch?wait=0'),
      await watchAs(sign(randomBytes(32).toString('base64')), '?wait=0'),
      await watchAs(sign(TEST_CHANGE_ORIGIN_KEY, 'planner'), '?wait=0'),
      await watchAs(sign(TEST_CHANGE_ORIGIN_KEY, 'integrations', '/v1/events?wait=0'), '?wait=0'),
      await watchAs(sign(TEST_CHANGE_ORIGIN_KEY, 'integrations', undefined, Date.now() - 600_000), '?wait=0'),
    ];
    for (const response of refused) {
      expect({ status: response.statusCode, code: response.json<{ code: string }>().code }).toEqual({
        status: 401,
        code: 'AC005',
      });
    }
    // Shaped like a snapshot but not one PostgreSQL (or the watch's bigint read) takes: 400, never 500.
    for (const after of [
      '1:2:x',
      '5:3:',
      '0:0:',
      '3:9:9',
      '3:9:5,4',
      '3:9:2',
      '9223372036854775808:9223372036854775808:',
    ]) {
      const badPosition = await watchAs(
        sign(TEST_CHANGE_ORIGIN_KEY, 'integrations', `/v1/events/watch?after=${after}`),
        `?after=${after}`,
      );
      expect({
        after,
        status: badPosition.statusCode,
        field: badPosition.json<{ errors?: { field: string }[] }>().errors?.[0]?.field,
      }).toEqual({
        after,
        status: 400,
        field: 'after',
      });
    }
  });

  it('signs the query string too, and only for a minute: a seen signature cannot be replayed with other parameters or later', async () => {
    const signed = '?wait=0';
    const signature = signServiceRequest(
      TEST_CHANGE_ORIGIN_KEY,
      'integrations',
      'GET',
      `/v1/events/watch${signed}`,
    );
    const position = (await watch()).position;
    const replays = [
      await watchAs(signature, '?wait=55'),
      await watchAs(signature, `?after=${encodeURIComponent(position)}&wait=0`),
      await watchAs(signature, ''),
      await watchAs(
        signServiceRequest(
          TEST_CHANGE_ORIGIN_KEY,
          'integrations',
          'GET',
          `/v1/events/watch${signed}`,
          Date.now() - 61_000,
        ),
        signed,
      ),
    ];
    for (const response of replays) {
      expect({ status: response.statusCode, code: response.json<{ code: string }>().code }).toEqual({
        status: 401,
        code: 'AC005',
      });
    }
    expect((await watchAs(signature, signed)).statusCode).toBe(200);
  });

  it('starts with a reset, then names the companies with events after the position, once', async () => {
    const start = await watch();
    expect(start).toEqual({ position: expect.any(String), reset: true, companies: [] });

    expect(await watch(start.position)).toEqual({
      position: expect.any(String),
      reset: false,
      companies: [],
    });
    await createClient(globex, 'Globex client');
    await createClient(acme, 'Acme client');
    const changed = await watch(start.position);
    expect(changed.companies).toEqual([acme, globex].sort((a, b) => a - b));
    expect(changed.reset).toBe(false);

    expect((await watch(changed.position)).companies).toEqual([]);
  });

  it('reports a transaction that drew its cursor first but committed after another company was reported', async () => {
    const start = await watch();
    const late = new Client({ connectionString: app.service.env.DATABASE_URL });
    await late.connect();
    try {
      await late.query('BEGIN');
      await late.query('INSERT INTO main_api.clients (company_id, name) VALUES ($1, $2)', [acme, 'Late']);
      // Globex's event gets the higher cursor but commits first.
      await createClient(globex, 'Early');
      const first = await watch(start.position);
      expect(first.companies).toEqual([globex]);
      await late.query('COMMIT');
      const second = await watch(first.position);
      expect(second.companies).toEqual([acme]);
    } finally {
      await late.end();
    }
  });

  it('waits when nothing changed and is woken by the commit that appends events', async () => {
    const { position } = await watch();
    const started = Date.now();
    const waiting = watch(position, 20);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await createClient(acme, 'Wakes the watch');
    const answer = await waiting;
    expect(answer.companies).toEqual([acme]);
    // Woken by the NOTIFY of the commit, not by the 20 s timeout.
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('answers no companies when the wait runs out, and a rolled-back change wakes nobody', async () => {
    const { position } = await watch();
    const rolledBack = new Client({ connectionString: app.service.env.DATABASE_URL });
    await rolledBack.connect();
    try {
      const started = Date.now();
      const waiting = watch(position, 1);
      await rolledBack.query('BEGIN');
      await rolledBack.query('INSERT INTO main_api.clients (company_id, name) VALUES ($1, $2)', [
        acme,
        'Gone',
      ]);
      await rolledBack.query('ROLLBACK');
      expect((await waiting).companies).toEqual([]);
      expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    } finally {
      await rolledBack.end();
    }
  });

  it('asks for a reset when the position is from the future (a restored database)', async () => {
    const { position } = await watch();
    const [xmin, xmax] = position.split(':').map(BigInt) as [bigint, bigint];
    const future = `${xmin + 1_000_000n}:${xmax + 1_000_000n}:`;
    expect(await watch(future)).toEqual({ position: expect.any(String), reset: true, companies: [] });
  });
});
