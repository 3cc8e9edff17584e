import { constraintViolationOf } from '@platform/database';
import { EnvValidationError, loadEnv } from '@platform/runtime';
import { DataSource } from 'typeorm';
import { MainApiEnv } from '../config/main-api.env';
import { mainApiDataSourceOptions } from '../database/main-api.data-source';
import { parseProvisionArguments, ProvisionUsageError, type ProvisionArguments } from './provision-arguments';
import { PROVISION_USAGE, wantsProvisionHelp } from './provision-usage';
import { ProvisioningService } from './provisioning.service';

/** Where the command writes: stdout gets the JSON document only, stderr everything else. */
export interface ProvisionOutput {
  stdout(text: string): void;
  stderr(text: string): void;
}

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

/**
 * The provisioning command, as a function of its command line and environment so that tests run it
 * in-process: prints one JSON document on stdout and answers the exit code (0; 1 with one line on
 * stderr when it fails; 2 for a command line it cannot run). `--help` prints the usage on stdout.
 */
export async function runProvisionCommand(
  argv: string[],
  environment: NodeJS.ProcessEnv,
  output: ProvisionOutput,
): Promise<number> {
  if (wantsProvisionHelp(argv)) {
    output.stdout(`${PROVISION_USAGE}\n`);
    return EXIT_OK;
  }
  const fail = (message: string, code: number) => {
    output.stderr(`provision: ${message.replace(/\s*\n\s*/g, ' ')}\n`);
    return code;
  };
  let args: ProvisionArguments;
  try {
    args = parseProvisionArguments(argv);
  } catch (error) {
    if (error instanceof ProvisionUsageError) {
      return fail(`${error.message} (--help for usage)`, EXIT_USAGE);
    }
    throw error;
  }
  let env: MainApiEnv;
  try {
    env = loadEnv(MainApiEnv, environment);
  } catch (error) {
    if (error instanceof EnvValidationError) {
      return fail(error.message, EXIT_FAILED);
    }
    throw error;
  }
  try {
    const result = await provision(env, args);
    output.stdout(`${JSON.stringify(result, null, 2)}\n`);
    return EXIT_OK;
  } catch (error) {
    return fail(describeFailure(error, args), EXIT_FAILED);
  }
}

async function provision(env: MainApiEnv, args: ProvisionArguments): Promise<object> {
  const dataSource = new DataSource(mainApiDataSourceOptions({ ...env, DATABASE_POOL_MAX: 2 }));
  await dataSource.initialize();
  try {
    const provisioning = new ProvisioningService(dataSource);
    const companyId = args.companyId ?? 0;
    switch (args.mode) {
      case 'add-user':
        return await provisioning.addUser({
          companyId,
          email: args.email,
          firstName: args.firstName,
          lastName: args.lastName,
          roleId: args.role,
          password: args.password,
        });
      case 'add-client':
        return await provisioning.addClient({ companyId, name: args.name, roleId: args.role });
      case 'add-app':
        return await provisioning.addApp({ companyId, name: args.name, redirectUris: args.redirectUris });
      case 'revoke-app':
        return await provisioning.revokeApp({ companyId, clientId: args.clientId ?? '' });
      case 'company': {
        const companyName = args.company ?? '';
        const existingId = args.ifAbsent ? await provisioning.findCompanyIdByName(companyName) : undefined;
        if (existingId !== undefined) {
          return { companyId: existingId, alreadyProvisioned: true };
        }
        return await provisioning.provision({
          companyName,
          email: args.email,
          firstName: args.firstName,
          lastName: args.lastName,
          password: args.password,
          baseCurrencyId: args.currency,
        });
      }
    }
  } finally {
    await dataSource.destroy();
  }
}

/** PostgreSQL's codes for a missing table and a missing schema: main-api is not migrated there. */
const NOT_MIGRATED = new Set(['42P01', '3F000']);

function describeFailure(error: unknown, args: ProvisionArguments): string {
  if (constraintViolationOf(error)?.constraint === 'users_email_lower_key') {
    return `a user with e-mail ${args.email} already exists; pass another --email`;
  }
  const { code, driverError } = (error ?? {}) as { code?: unknown; driverError?: { code?: unknown } };
  // A connection refused on every address of a host name is an AggregateError without a message.
  const cause: unknown = error instanceof AggregateError && error.message === '' ? error.errors[0] : error;
  const message = cause instanceof Error ? cause.message : String(cause);
  return NOT_MIGRATED.has(String(code ?? driverError?.code))
    ? `${message} (migrate main-api first: node dist/apps/main-api/apps/main-api/src/migrate.js)`
    : message;
}
