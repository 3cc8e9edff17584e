import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { runMigrations } from '@platform/database';
import { createTestDatabase, type TestDatabase } from '@platform/testing';
import { mainApiOwnerDataSourceOptions } from '../database/main-api.data-source';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, runProvisionCommand } from './provision-command';

/** The compiled CLI, as the image and `npm run provision` run it (CI builds before it tests). */
const BUILT_CLI = join(
  __dirname,
  '../../../../dist/apps/main-api/apps/main-api/src/provisioning/provision.cli.js',
);

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The command in-process, its two streams captured. */
async function provision(argv: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await runProvisionCommand(argv, env, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
  });
  return { code, stdout, stderr };
}

/** The compiled file under plain `node`, as a platform engineer runs it. */
async function provisionProcess(argv: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [BUILT_CLI, ...argv], {
      env: { PATH: process.env.PATH, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, stdout, stderr };
  }
}

const oneLine = expect.stringMatching(/^provision: [^\n]+\n$/);

describe('the provisioning command', () => {
  let database: TestDatabase;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    database = await createTestDatabase('provision-command');
    await runMigrations(
      mainApiOwnerDataSourceOptions({
        DATABASE_URL: database.url,
        DATABASE_POOL_MAX: 2,
        DATABASE_STATEMENT_TIMEOUT_MS: 0,
      }),
    );
    env = { DATABASE_URL: database.url, LOG_LEVEL: 'silent' };
  });

  afterAll(() => database.drop());

  it('prints the new company, user and API client as one JSON document on stdout, nothing else', async () => {
    const run = await provision(['--company', 'Scripted Agency'], env);

    expect(run).toEqual({ code: EXIT_OK, stdout: expect.any(String), stderr: '' });
    expect(JSON.parse(run.stdout)).toEqual({
      companyId: expect.any(Number),
      userId: expect.any(Number),
      email: 'admin@scripted-agency.example.com',
      password: expect.any(String),
      apiKey: expect.stringMatching(/^ak_/),
      clientSecret: expect.any(String),
    });
  });

  it('answers an existing company with --if-absent as JSON too, and adds an API client to it', async () => {
    const again = await provision(['--company', 'Scripted Agency', '--if-absent'], env);
    const { companyId } = JSON.parse(again.stdout) as { companyId: number };
    const client = await provision(['--add-client', '--company-id', String(companyId), '--role', '2'], env);

    expect(again.code).toBe(EXIT_OK);
    expect(JSON.parse(again.stdout)).toEqual({ companyId, alreadyProvisioned: true });
    expect(client.code).toBe(EXIT_OK);
    expect(JSON.parse(client.stdout)).toMatchObject({
      companyId,
      roleId: 2,
      apiKey: expect.stringMatching(/^ak_/),
    });
  });

  it('prints its usage on stdout with --help and exits 0, without a database', async () => {
    const run = await provision(['--add-user', '--help'], {});

    expect(run.code).toBe(EXIT_OK);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain(
      'usage: node dist/apps/main-api/apps/main-api/src/provisioning/provision.cli.js',
    );
    expect(run.stdout).toContain('--revoke-app --company-id 1 --client-id');
  });

  it.each([
    [['--company', 'A', '--colour', 'red'], "Unknown option '--colour'"],
    [['--add-user', '--company-id', '1'], '--email is required with --add-user'],
    [['--company', 'A', '--currency', '99'], '--currency must be a currency id'],
    [[], '--company is required'],
  ])('refuses the command line %p with exit code 2 and one line on stderr', async (argv, message) => {
    const run = await provision(argv, env);

    expect(run).toEqual({ code: EXIT_USAGE, stdout: '', stderr: oneLine });
    expect(run.stderr).toContain(message);
    expect(run.stderr).toContain('(--help for usage)');
  });

  it('answers a failure with exit code 1 and one line on stderr, stdout empty', async () => {
    const run = await provision(['--add-client', '--company-id', '999999'], env);

    expect(run).toEqual({ code: EXIT_FAILED, stdout: '', stderr: oneLine });
    expect(run.stderr).toContain('company 999999 does not exist');
  });

  it('names the variable when the environment is wrong, never its value', async () => {
    const run = await provision(['--company', 'A'], { DATABASE_URL: 'mysql://secret@db/x' });

    expect(run).toEqual({ code: EXIT_FAILED, stdout: '', stderr: oneLine });
    expect(run.stderr).toContain('DATABASE_URL');
    expect(run.stderr).not.toContain('secret');
  });

  it('says to migrate first when main-api has no tables in that database', async () => {
    const empty = await createTestDatabase('provision-unmigrated');
    try {
      const run = await provision(['--company', 'A'], { DATABASE_URL: empty.url });

      expect(run).toEqual({ code: EXIT_FAILED, stdout: '', stderr: oneLine });
      expect(run.stderr).toContain('migrate main-api first');
    } finally {
      await empty.drop();
    }
  });

  // The process itself: no Nx, plain node on the compiled file. CI builds before it tests; a
  // checkout that was never built skips these three (npm run provision builds when needed).
  const built = existsSync(BUILT_CLI);
  describe(
    built ? 'compiled, under plain node' : 'compiled (skipped: dist/apps/main-api is not built)',
    () => {
      const itBuilt = built ? it : it.skip;

      itBuilt('prints only the JSON document on stdout, which parses', async () => {
        const run = await provisionProcess(['--company', 'Spawned Agency'], env);

        expect(run.code).toBe(EXIT_OK);
        expect(JSON.parse(run.stdout)).toMatchObject({
          companyId: expect.any(Number),
          apiKey: expect.stringMatching(/^ak_/),
        });
      });

      itBuilt('prints its usage with --help and exits 0', async () => {
        const run = await provisionProcess(['--help'], {});

        expect(run).toMatchObject({ code: EXIT_OK, stderr: '' });
        expect(run.stdout).toMatch(/^Creates a company/);
      });

      itBuilt('exits 2 with one line on stderr for a bad argument', async () => {
        const run = await provisionProcess(['--company', 'A', '--colour', 'red'], env);

        expect(run).toEqual({ code: EXIT_USAGE, stdout: '', stderr: oneLine });
      });
    },
  );
});
