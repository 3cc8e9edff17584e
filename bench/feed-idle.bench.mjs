// The outbound change feed at rest (issue 24): what main-api spends while integrations follows the
// feeds of N subscribing companies and nothing changes. For each N, a scratch database, N companies
// with an API client and one active subscription each (made through integrations' API, which checks
// the client with main-api), main-api and integrations built, then SECONDS of idling measured:
// main-api's answered requests (its own request histogram, /metrics excluded) and the CPU seconds of
// main-api, integrations and PostgreSQL's backends of the database (from /proc).
//
//   npx nx run-many -t build -p main-api planner integrations && node bench/feed-idle.bench.mjs [sizes] [seconds]
//   e.g. node bench/feed-idle.bench.mjs 10,1000 30
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import {
  cpuSeconds,
  postgresCpuSeconds,
  postgresCpuSpent,
  runCommand,
  scratchDatabase,
  signingKey,
  sql,
  startService,
} from './support.mjs';

const SIZES = (process.argv[2] ?? '10,1000').split(',').map(Number);
const SECONDS = Number(process.argv[3] ?? 30);
const SETTLE_SECONDS = 5;

const say = (message) => process.stderr.write(`${message}\n`);

/** main-api's answered requests so far, by route, from its own histogram. */
async function requestsByRoute(url) {
  const text = await (await fetch(`${url}/metrics`)).text();
  const counts = {};
  for (const [, route, count] of text.matchAll(
    /^http_request_duration_seconds_count\{[^}]*route="([^"]*)"[^}]*\} (\d+)/gm,
  )) {
    if (route !== '/metrics') {
      counts[route] = (counts[route] ?? 0) + Number(count);
    }
  }
  return counts;
}

async function inParallel(items, width, work) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const item = items[next++];
        await work(item);
      }
    }),
  );
}

async function measure(companies) {
  const database = await scratchDatabase('bench_feed_idle');
  const running = [];
  const receiver = createServer((request, response) =>
    request.resume().on('end', () => response.writeHead(204).end()),
  );
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  try {
    const key = signingKey();
    const common = { DATABASE_URL: database.url, LOG_LEVEL: 'warn', NODE_ENV: 'production' };
    const changeOriginKey = randomBytes(32).toString('base64');
    for (const app of ['main-api', 'integrations']) {
      await runCommand(app, 'migrate.js', common);
    }
    say(`${companies} companies: seeding`);
    const { rows: created } = await sql(
      database.url,
      `INSERT INTO main_api.companies (name) SELECT 'Idle ' || g FROM generate_series(1, $1::int) g RETURNING id`,
      [companies],
    );
    const clients = created.map(({ id }) => {
      const secret = randomBytes(32).toString('base64url');
      return {
        companyId: id,
        apiKey: randomBytes(16).toString('hex'),
        secret,
        hash: `sha256$${createHash('sha256').update(secret, 'utf8').digest('hex')}`,
      };
    });
    await sql(
      database.url,
      `INSERT INTO main_api.api_clients (company_id, name, api_key, secret_hash, role_id)
       SELECT company_id, 'Idle client', api_key, secret_hash, 1
         FROM unnest($1::int[], $2::text[], $3::text[]) AS c (company_id, api_key, secret_hash)`,
      [clients.map((c) => c.companyId), clients.map((c) => c.apiKey), clients.map((c) => c.hash)],
    );

    const mainApi = await startService('main-api', {
      ...common,
      JWT_PRIVATE_KEY: key.privatePem,
      CHANGE_ORIGIN_KEY: changeOriginKey,
    });
    running.push(mainApi);
    const integrations = await startService('integrations', {
      ...common,
      MAIN_API_URL: mainApi.url,
      INTEGRATIONS_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      CHANGE_ORIGIN_KEY: changeOriginKey,
      SUBSCRIPTION_HTTP_ALLOWED_ORIGINS: 'http://127.0.0.1',
    });
    running.push(integrations);

    say(`${companies} companies: subscribing`);
    const target = `http://127.0.0.1:${receiver.address().port}/hook`;
    await inParallel(clients, 8, async (client) => {
      const response = await fetch(`${integrations.url}/v2/integrations/subscriptions`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key.token({ companyId: client.companyId })}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({
          metadata: { source: 'HUBSPOT' },
          url: target,
          entities: ['clients'],
          api_key: client.apiKey,
          client_secret: client.secret,
        }),
      });
      if (response.status !== 201) {
        throw new Error(
          `subscribing company ${client.companyId}: ${response.status} ${await response.text()}`,
        );
      }
    });

    // One change in every company, delivered, so every feed has been read once and has a cursor.
    await sql(
      database.url,
      `INSERT INTO main_api.clients (company_id, name) SELECT id, 'Touched' FROM main_api.companies`,
    );
    const databaseName = new URL(database.url).pathname.slice(1);
    for (let waited = 0; ; waited += 1) {
      const { rows } = await sql(
        database.url,
        'SELECT count(*)::int AS n FROM integrations.webhook_deliveries',
      );
      if (rows[0].n >= companies) {
        break;
      }
      if (waited > 600) {
        throw new Error(`only ${rows[0].n} of ${companies} deliveries queued after 10 minutes`);
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    await new Promise((resolve) => setTimeout(resolve, SETTLE_SECONDS * 1000));

    say(`${companies} companies: idling ${SECONDS} s`);
    const before = {
      requests: await requestsByRoute(mainApi.url),
      mainApiCpu: await cpuSeconds(mainApi.pid),
      integrationsCpu: await cpuSeconds(integrations.pid),
      postgresCpu: await postgresCpuSeconds(database.url, databaseName),
    };
    await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
    const after = {
      requests: await requestsByRoute(mainApi.url),
      mainApiCpu: await cpuSeconds(mainApi.pid),
      integrationsCpu: await cpuSeconds(integrations.pid),
      postgresCpu: await postgresCpuSeconds(database.url, databaseName),
    };
    const byRoute = Object.fromEntries(
      Object.keys(after.requests)
        .map((route) => [route, after.requests[route] - (before.requests[route] ?? 0)])
        .filter(([, count]) => count > 0),
    );
    const requests = Object.values(byRoute).reduce((sum, count) => sum + count, 0);
    const round = (value) => Math.round(value * 1000) / 1000;
    return {
      companies,
      seconds: SECONDS,
      main_api_requests_per_second: round(requests / SECONDS),
      main_api_requests_by_route: byRoute,
      main_api_cpu_seconds_per_second: round((after.mainApiCpu - before.mainApiCpu) / SECONDS),
      integrations_cpu_seconds_per_second: round((after.integrationsCpu - before.integrationsCpu) / SECONDS),
      postgres_cpu_seconds_per_second: round(
        postgresCpuSpent(before.postgresCpu, after.postgresCpu) / SECONDS,
      ),
    };
  } finally {
    for (const service of running.reverse()) {
      await service.stop();
    }
    receiver.close();
    await database.drop();
  }
}

const results = [];
for (const companies of SIZES) {
  results.push(await measure(companies));
}
process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
