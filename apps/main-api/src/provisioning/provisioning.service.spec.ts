import { runMigrations } from '@platform/database';
import { Role } from '@platform/contracts';
import { createTestDatabase, type TestDatabase } from '@platform/testing';
import { DataSource } from 'typeorm';
import { ApiClient } from '../api-clients/api-client.entity';
import { Company } from '../companies/company.entity';
import { mainApiOwnerDataSourceOptions } from '../database/main-api.data-source';
import { verifyClientSecret } from '../security/client-secrets';
import { verifyPassword } from '../security/password-hashing';
import { User } from '../users/user.entity';
import { parseProvisionArguments } from './provision-arguments';
import { ProvisioningService } from './provisioning.service';

describe('ProvisioningService', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let provisioning: ProvisioningService;

  beforeAll(async () => {
    database = await createTestDatabase('provisioning');
    const options = mainApiOwnerDataSourceOptions({
      DATABASE_URL: database.url,
      DATABASE_POOL_MAX: 4,
      DATABASE_STATEMENT_TIMEOUT_MS: 0,
    });
    await runMigrations(options);
    dataSource = await new DataSource(options).initialize();
    provisioning = new ProvisioningService(dataSource);
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  it('creates a company, its first C-Level user and an API client, storing only slow hashes', async () => {
    const result = await provisioning.provision({
      companyName: 'Acme',
      email: 'CEO@Acme.test',
      firstName: 'Ada',
      lastName: 'Lovelace',
    });

    expect(result).toEqual({
      companyId: expect.any(Number),
      userId: expect.any(Number),
      email: 'ceo@acme.test',
      password: expect.stringMatching(/^[\w-]{16}$/),
      apiKey: expect.stringMatching(/^ak_[0-9a-f]{24}$/),
      clientSecret: expect.stringMatching(/^[\w-]{43}$/),
    });
    const user = await dataSource.getRepository(User).findOneOrFail({
      where: { id: result.userId },
      select: { id: true, companyId: true, roleId: true, passwordHash: true },
    });
    const client = await dataSource.getRepository(ApiClient).findOneOrFail({
      where: { apiKey: result.apiKey },
      select: { id: true, companyId: true, roleId: true, secretHash: true },
    });
    expect(user).toMatchObject({ companyId: result.companyId, roleId: Role.CLevel });
    expect(client).toMatchObject({ companyId: result.companyId, roleId: Role.CLevel });
    expect(user.passwordHash).toMatch(/^scrypt\$/);
    expect(user.passwordHash).not.toContain(result.password);
    await expect(verifyPassword(result.password, user.passwordHash ?? '')).resolves.toEqual({
      matches: true,
      outdated: false,
    });
    // 256 random bits: a fast hash, never the secret itself.
    expect(client.secretHash).toMatch(/^sha256\$[0-9a-f]{64}$/);
    expect(Buffer.from(result.clientSecret, 'base64url')).toHaveLength(32);
    await expect(verifyClientSecret(result.clientSecret, client.secretHash)).resolves.toMatchObject({
      matches: true,
    });
    await expect(verifyClientSecret('wrong', client.secretHash)).resolves.toMatchObject({ matches: false });
  });

  it('saves nothing when the e-mail is taken, whatever its case', async () => {
    await provisioning.provision({
      companyName: 'First',
      email: 'owner@studio.test',
      firstName: 'A',
      lastName: 'B',
    });
    const companiesBefore = await dataSource.getRepository(Company).count();

    await expect(
      provisioning.provision({
        companyName: 'Second',
        email: 'OWNER@studio.test',
        firstName: 'C',
        lastName: 'D',
      }),
    ).rejects.toMatchObject({
      driverError: expect.objectContaining({ constraint: 'users_email_lower_key' }),
    });
    expect(await dataSource.getRepository(Company).count()).toBe(companiesBefore);
  });

  it('finds an existing company by name for --if-absent', async () => {
    const { companyId } = await provisioning.provision({
      companyName: 'Lookup Ltd',
      email: 'a@lookup.test',
      firstName: 'A',
      lastName: 'B',
    });

    await expect(provisioning.findCompanyIdByName('Lookup Ltd')).resolves.toBe(companyId);
    await expect(provisioning.findCompanyIdByName('Nobody')).resolves.toBeUndefined();
  });

  it('adds a user and an API client with their own roles to an existing company', async () => {
    const { companyId } = await provisioning.provision({
      companyName: 'Grow',
      email: 'a@grow.test',
      firstName: 'A',
      lastName: 'B',
    });

    const user = await provisioning.addUser({
      companyId,
      email: 'pm@grow.test',
      firstName: 'P',
      lastName: 'M',
      roleId: Role.ProjectManager,
    });
    const client = await provisioning.addClient({ companyId, name: 'CRM sync', roleId: Role.Director });

    expect(user).toEqual({
      companyId,
      userId: expect.any(Number),
      email: 'pm@grow.test',
      password: expect.any(String),
      roleId: 3,
    });
    expect(client).toEqual({
      companyId,
      clientId: expect.any(Number),
      apiKey: expect.stringMatching(/^ak_/),
      clientSecret: expect.any(String),
      roleId: 2,
    });
    const stored = await dataSource
      .getRepository(ApiClient)
      .findOneOrFail({ where: { id: client.clientId }, select: { id: true, secretHash: true } });
    await expect(verifyClientSecret(client.clientSecret, stored.secretHash)).resolves.toMatchObject({
      matches: true,
    });
  });

  it('registers a browser app: a public client_id, its exact redirect URIs, no secret', async () => {
    const { companyId } = await provisioning.provision({
      companyName: 'Webby',
      email: 'a@webby.test',
      firstName: 'A',
      lastName: 'B',
    });

    const app = await provisioning.addApp({
      companyId,
      name: 'Web app',
      redirectUris: ['http://localhost:5173/callback'],
    });

    expect(app).toEqual({
      companyId,
      appId: expect.any(Number),
      clientId: expect.stringMatching(/^app_[0-9a-f]{24}$/),
      name: 'Web app',
      redirectUris: ['http://localhost:5173/callback'],
      tokenEndpointAuthMethod: 'none',
    });
    const [row] = await dataSource.query<Record<string, unknown>[]>(
      'SELECT company_id, redirect_uris, revoked_at FROM oauth_apps WHERE client_id = $1',
      [app.clientId],
    );
    expect(row).toEqual({
      company_id: companyId,
      redirect_uris: ['http://localhost:5173/callback'],
      revoked_at: null,
    });
    await expect(
      provisioning.addApp({ companyId, name: 'x', redirectUris: ['http://evil.example/callback'] }),
    ).rejects.toThrow('must use https');
    await expect(provisioning.addApp({ companyId: 999999, name: 'x', redirectUris: [] })).rejects.toThrow(
      'company 999999 does not exist',
    );
  });

  it('refuses a company that does not exist', async () => {
    await expect(provisioning.addClient({ companyId: 999999, name: 'x', roleId: 1 })).rejects.toThrow(
      'company 999999 does not exist',
    );
  });
});

describe('parseProvisionArguments', () => {
  it('fills defaults from the company name', () => {
    expect(parseProvisionArguments(['--company', 'Blue Fox Studio'])).toMatchObject({
      company: 'Blue Fox Studio',
      email: 'admin@blue-fox-studio.example.com',
      currency: 1,
      ifAbsent: false,
    });
  });

  it('reads the add-user and add-client modes with their defaults', () => {
    expect(parseProvisionArguments(['--add-user', '--company-id', '4', '--email', 'c@d.test'])).toMatchObject(
      { mode: 'add-user', companyId: 4, role: 4 },
    );
    expect(parseProvisionArguments(['--add-client', '--company-id', '4'])).toMatchObject({
      mode: 'add-client',
      companyId: 4,
      role: 1,
      name: 'API client',
    });
  });

  it('reads the add-app mode with its redirect URIs', () => {
    expect(
      parseProvisionArguments([
        '--add-app',
        '--company-id',
        '2',
        '--redirect-uri',
        'http://localhost:5173/callback',
        '--redirect-uri',
        'https://app.example.com/callback',
      ]),
    ).toMatchObject({
      mode: 'add-app',
      companyId: 2,
      name: 'Web app',
      redirectUris: ['http://localhost:5173/callback', 'https://app.example.com/callback'],
    });
    expect(
      parseProvisionArguments([
        '--add-app',
        '--company-id',
        '2',
        '--redirect-uri',
        'https://a.test/cb',
        '--name',
        'SPA',
      ]),
    ).toMatchObject({ name: 'SPA' });
  });

  it.each([
    [[], '--company is required'],
    [['--add-app', '--company-id', '1'], '--redirect-uri is required with --add-app'],
    [['--add-app', '--company-id', '1', '--redirect-uri', 'not a url'], 'is not an absolute URL'],
    [
      ['--add-app', '--company-id', '1', '--redirect-uri', 'https://a.test/cb#x'],
      'must not contain a fragment',
    ],
    [['--add-app', '--redirect-uri', 'https://a.test/cb'], '--company-id is required with --add-app'],
    [['--add-app', '--add-client', '--company-id', '1'], 'not both'],
    [['--company', 'A', '--email', 'not-an-email'], '--email must be an e-mail address'],
    [['--company', 'A', '--password', 'short'], '--password must be 12 to 200 characters'],
    [['--company', 'A', '--currency', '99'], '--currency must be a currency id'],
    [['--company', 'A', '--colour', 'red'], "Unknown option '--colour'"],
    [['--add-user', '--email', 'x@y.test'], '--company-id is required with --add-user'],
    [['--add-user', '--company-id', '1'], '--email is required with --add-user'],
    [['--add-client', '--company-id', '1', '--role', '7'], '--role must be a role id'],
    [['--add-client', '--add-user', '--company-id', '1'], 'not both'],
  ])('rejects %p', (argv, message) => {
    expect(() => parseProvisionArguments(argv)).toThrow(message);
  });
});
