import { RetentionPruner } from '@platform/database';
import { generateTestKeyPair, startTestService, type TestService } from '@platform/testing';
import { DataSource } from 'typeorm';
import { MainApiEnv } from '../src/config/main-api.env';
import { mainApiOwnerDataSourceOptions } from '../src/database/main-api.data-source';
import { mainApiService } from '../src/main-api.service';
import { ProvisioningService, type ProvisionedCompany } from '../src/provisioning/provisioning.service';

interface TokenResponse {
  access_token: string;
  refresh_token: string;
}

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe('main-api retention (e2e)', () => {
  const keys = generateTestKeyPair();
  let service: TestService<MainApiEnv>;
  let dataSource: DataSource;
  let company: ProvisionedCompany;

  beforeAll(async () => {
    service = await startTestService({
      definition: mainApiService,
      envClass: MainApiEnv,
      dataSourceOptions: mainApiOwnerDataSourceOptions,
      env: { JWT_PRIVATE_KEY: keys.privatePem },
    });
    dataSource = await new DataSource(mainApiOwnerDataSourceOptions(service.env)).initialize();
    company = await new ProvisioningService(dataSource).provision({
      companyName: 'Keeper',
      email: 'ceo@keeper.test',
      firstName: 'K',
      lastName: 'K',
    });
  });

  afterAll(async () => {
    await dataSource.destroy();
    await service.close();
  });

  const post = (url: string, fields: Record<string, string>) =>
    service.app.inject({
      method: 'POST',
      url,
      payload: new URLSearchParams(fields).toString(),
      headers: FORM,
    });
  const login = async () =>
    (
      await post('/v1/oauth/token', {
        grant_type: 'password',
        username: company.email,
        password: company.password,
      })
    ).json<TokenResponse>();
  const refresh = (token: string) => post('/v1/oauth/refreshtoken', { refresh_token: token });
  const familyOf = (token: TokenResponse): string =>
    (
      JSON.parse(Buffer.from(token.access_token.split('.')[1], 'base64url').toString('utf8')) as {
        sid: string;
      }
    ).sid;
  const endLogin = (familyId: string, ago: string) =>
    dataSource.query(
      `UPDATE refresh_tokens SET family_expires_at = now() - $2::interval,
         expires_at = least(expires_at, now() - $2::interval) WHERE family_id = $1`,
      [familyId, ago],
    );
  const rowsOf = async (familyId: string): Promise<number> =>
    (
      await dataSource.query<{ n: number }[]>(
        'SELECT count(*)::int AS n FROM refresh_tokens WHERE family_id = $1',
        [familyId],
      )
    )[0].n;
  const prune = (table: string) => service.app.get(RetentionPruner).runOnce([table]);

  it('prunes every table of main-api that grows with traffic', async () => {
    const report = await service.app.get(RetentionPruner).runOnce();

    expect(Object.keys(report).sort()).toEqual([
      'authorization_codes',
      'change_events',
      'event_stream_tickets',
      'idempotency_records',
      'rate_limit_buckets',
      'refresh_tokens',
    ]);
  });

  it('removes a login a day after it ended, its spent and revoked tokens included', async () => {
    const first = await login();
    const second = (await refresh(first.refresh_token)).json<TokenResponse>();
    // Reuse: the whole family is revoked.
    expect((await refresh(first.refresh_token)).statusCode).toBe(400);
    const ended = familyOf(second);
    await endLogin(ended, '25 hours');
    const justEnded = familyOf(await login());
    await endLogin(justEnded, '1 hour');

    await prune('refresh_tokens');

    expect(await rowsOf(ended)).toBe(0);
    // Its access tokens may live up to a day past its end: its revocation must still be readable.
    expect(await rowsOf(justEnded)).toBe(1);
  });

  it('keeps the spent tokens of a live login, so reuse is still detected after a prune', async () => {
    const first = await login();
    const second = (await refresh(first.refresh_token)).json<TokenResponse>();
    const family = familyOf(second);
    // Long spent, but the login runs on.
    await dataSource.query(
      "UPDATE refresh_tokens SET created_at = now() - interval '60 days', expires_at = now() - interval '30 days' WHERE family_id = $1 AND used_at IS NOT NULL",
      [family],
    );

    await prune('refresh_tokens');
    const replay = await refresh(first.refresh_token);
    const afterReplay = await refresh(second.refresh_token);

    expect(await rowsOf(family)).toBe(2);
    expect(replay.json()).toMatchObject({
      error: 'invalid_grant',
      error_description: expect.stringContaining('already used'),
    });
    expect(afterReplay.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('removes sign-in failure windows closed over an hour ago and keeps the others', async () => {
    const failed = await post('/v1/oauth/token', {
      grant_type: 'password',
      username: company.email,
      password: 'wrong password',
    });
    expect(failed.statusCode).toBe(400);
    const buckets = await dataSource.query<{ key: string }[]>('SELECT key FROM rate_limit_buckets');
    expect(buckets.length).toBeGreaterThan(0);
    await dataSource.query(
      "UPDATE rate_limit_buckets SET window_ends_at = now() - interval '61 minutes' WHERE key = ANY($1)",
      [buckets.map(({ key }) => key)],
    );
    await dataSource.query(
      `INSERT INTO rate_limit_buckets (key, window_ends_at, hits, blocked_until) VALUES
         ('ip:192.0.2.1', now() - interval '50 minutes', 40, now() - interval '1 minute'),
         ('ip:192.0.2.2', now() + interval '1 minute', 3, NULL)`,
    );

    await prune('rate_limit_buckets');

    const left = await dataSource.query<{ key: string }[]>('SELECT key FROM rate_limit_buckets ORDER BY key');
    expect(left.map(({ key }) => key)).toEqual(['ip:192.0.2.1', 'ip:192.0.2.2']);
  });
});
