import { RetentionPruner } from '@platform/database';
import { generateTestKeyPair, signTestToken, startTestService, type TestService } from '@platform/testing';
import { DataSource } from 'typeorm';
import { MainApiEnv } from '../src/config/main-api.env';
import { mainApiOwnerDataSourceOptions } from '../src/database/main-api.data-source';
import { mainApiService } from '../src/main-api.service';
import { ProvisioningService } from '../src/provisioning/provisioning.service';

describe('main-api Idempotency-Key on POST (e2e)', () => {
  const keys = generateTestKeyPair();
  let service: TestService<MainApiEnv>;
  let dataSource: DataSource;
  let companyId: number;
  let otherCompanyId: number;

  beforeAll(async () => {
    service = await startTestService({
      definition: mainApiService,
      envClass: MainApiEnv,
      dataSourceOptions: mainApiOwnerDataSourceOptions,
      env: { JWT_PRIVATE_KEY: keys.privatePem },
    });
    dataSource = await new DataSource(mainApiOwnerDataSourceOptions(service.env)).initialize();
    const provisioning = new ProvisioningService(dataSource);
    companyId = (
      await provisioning.provision({ companyName: 'I', email: 'i@i.test', firstName: 'I', lastName: 'I' })
    ).companyId;
    otherCompanyId = (
      await provisioning.provision({ companyName: 'J', email: 'j@j.test', firstName: 'J', lastName: 'J' })
    ).companyId;
  });

  afterAll(async () => {
    await dataSource.destroy();
    await service.close();
  });

  const createClient = (name: string, key?: string, company = companyId, subject = 'user:1') =>
    service.app.inject({
      method: 'POST',
      url: '/v1/clients',
      headers: {
        authorization: `Bearer ${signTestToken({ keys, companyId: company, subject })}`,
        ...(key === undefined ? {} : { 'idempotency-key': key }),
      },
      payload: { name },
    });
  const clientsNamed = async (name: string) =>
    Number(
      (await dataSource.query<{ count: string }[]>('SELECT count(*) FROM clients WHERE name = $1', [name]))[0]
        .count,
    );

  it('replays the first answer for the same key and body, creating once', async () => {
    const first = await createClient('Replayed', 'key-1');
    const second = await createClient('Replayed', 'key-1');

    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.json()).toEqual(first.json());
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(await clientsNamed('Replayed')).toBe(1);
  });

  it('refuses the same key with another body (422 AC004)', async () => {
    await createClient('Original', 'key-2');

    const reused = await createClient('Different', 'key-2');

    expect(reused.statusCode).toBe(422);
    expect(reused.json()).toMatchObject({ status: 422, name: 'PlatformCustomError', code: 'AC004' });
    expect(await clientsNamed('Different')).toBe(0);
  });

  it('creates once when the same request races itself', async () => {
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => createClient('Raced', 'key-3')));

    expect(await clientsNamed('Raced')).toBe(1);
    for (const outcome of outcomes) {
      expect([201, 409]).toContain(outcome.statusCode);
    }
  });

  it('keeps keys per company', async () => {
    await createClient('Company one', 'shared-key');
    const other = await createClient('Company two', 'shared-key', otherCompanyId);

    expect(other.statusCode).toBe(201);
    expect(other.json()).toMatchObject({ name: 'Company two', company_id: otherCompanyId });
  });

  it('keeps keys per caller: another caller of the company with the same key gets its own answer', async () => {
    const mine = await createClient('Caller one', 'callers-key', companyId, 'user:1');
    const theirs = await createClient('Caller two', 'callers-key', companyId, 'client:7');
    const mineAgain = await createClient('Caller one', 'callers-key', companyId, 'user:1');
    const theirsAgain = await createClient('Caller two', 'callers-key', companyId, 'client:7');

    expect(mine.statusCode).toBe(201);
    expect(theirs.statusCode).toBe(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.json()).toMatchObject({ name: 'Caller two', company_id: companyId });
    expect(theirs.json<{ id: number }>().id).not.toBe(mine.json<{ id: number }>().id);
    // Each caller still gets its own first answer back.
    expect(mineAgain.headers['idempotent-replayed']).toBe('true');
    expect(mineAgain.json()).toEqual(mine.json());
    expect(theirsAgain.headers['idempotent-replayed']).toBe('true');
    expect(theirsAgain.json()).toEqual(theirs.json());
  });

  it("never replays one caller's answer to another sending the very same request", async () => {
    const first = await createClient('Same request', 'same-request-key', companyId, 'user:1');
    const second = await createClient('Same request', 'same-request-key', companyId, 'user:2');

    expect([first.statusCode, second.statusCode]).toEqual([201, 201]);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(await clientsNamed('Same request')).toBe(2);
  });

  it('frees the key when the first attempt fails, so a corrected retry runs', async () => {
    const invalid = await createClient('', 'key-4');
    const retried = await service.app.inject({
      method: 'POST',
      url: '/v1/clients',
      headers: { authorization: `Bearer ${signTestToken({ keys, companyId })}`, 'idempotency-key': 'key-4' },
      payload: { name: 'Corrected' },
    });

    expect(invalid.statusCode).toBe(400);
    expect(retried.statusCode).toBe(201);
  });

  it('refuses a malformed key', async () => {
    const response = await createClient('Bad key', 'has spaces in it');

    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'AC002', errors: [{ field: 'Idempotency-Key' }] });
  });

  it('prunes records past the 24 hours and keeps the fresh ones, which still replay', async () => {
    const kept = await createClient('Kept answer', 'key-7');
    await createClient('Pruned answer', 'key-6');
    await dataSource.query(
      "UPDATE idempotency_records SET created_at = now() - interval '25 hours' WHERE key = 'key-6'",
    );

    await service.app.get(RetentionPruner).runOnce(['idempotency_records']);

    const left = await dataSource.query<{ key: string }[]>(
      "SELECT key FROM idempotency_records WHERE key IN ('key-6', 'key-7')",
    );
    expect(left).toEqual([{ key: 'key-7' }]);
    const replayed = await createClient('Kept answer', 'key-7');
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.json()).toEqual(kept.json());
  });

  it('lets a key be reused after 24 hours', async () => {
    await createClient('Old', 'key-5');
    await dataSource.query(
      "UPDATE idempotency_records SET created_at = now() - interval '25 hours' WHERE key = 'key-5'",
    );

    const again = await createClient('New', 'key-5');

    expect(again.statusCode).toBe(201);
    expect(again.json()).toMatchObject({ name: 'New' });
  });
});
