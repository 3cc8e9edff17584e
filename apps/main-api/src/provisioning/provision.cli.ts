import 'reflect-metadata';
import { constraintViolationOf } from '@platform/database';
import { loadEnvOrExit } from '@platform/runtime';
import { DataSource } from 'typeorm';
import { MainApiEnv } from '../config/main-api.env';
import { mainApiDataSourceOptions } from '../database/main-api.data-source';
import { parseProvisionArguments } from './provision-arguments';
import { ProvisioningService } from './provisioning.service';

/**
 * `npm run provision -- --company "Acme"`: prints `{companyId, userId, email, password, apiKey,
 * clientSecret}` as JSON on stdout. With `--if-absent`, an existing company of that name prints
 * `{companyId, alreadyProvisioned: true}` instead (the local start uses it). `--add-user` and
 * `--add-client` add credentials to an existing company (`--company-id`); `--add-app` registers a
 * browser app (public client, code + PKCE) and prints its `clientId`.
 */
async function main(): Promise<void> {
  const env = loadEnvOrExit('main-api', MainApiEnv);
  const args = parseProvisionArguments(process.argv.slice(2));
  const dataSource = new DataSource(mainApiDataSourceOptions({ ...env, DATABASE_POOL_MAX: 2 }));
  await dataSource.initialize();
  try {
    const provisioning = new ProvisioningService(dataSource);
    const print = (value: object) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
    switch (args.mode) {
      case 'add-user':
        print(
          await provisioning.addUser({
            companyId: args.companyId ?? 0,
            email: args.email,
            firstName: args.firstName,
            lastName: args.lastName,
            roleId: args.role,
            password: args.password,
          }),
        );
        return;
      case 'add-client':
        print(
          await provisioning.addClient({
            companyId: args.companyId ?? 0,
            name: args.name,
            roleId: args.role,
          }),
        );
        return;
      case 'add-app':
        print(
          await provisioning.addApp({
            companyId: args.companyId ?? 0,
            name: args.name,
            redirectUris: args.redirectUris,
          }),
        );
        return;
      case 'company': {
        const companyName = args.company ?? '';
        const existingId = args.ifAbsent ? await provisioning.findCompanyIdByName(companyName) : undefined;
        if (existingId !== undefined) {
          process.stdout.write(`${JSON.stringify({ companyId: existingId, alreadyProvisioned: true })}\n`);
          return;
        }
        print(
          await provisioning.provision({
            companyName,
            email: args.email,
            firstName: args.firstName,
            lastName: args.lastName,
            password: args.password,
            baseCurrencyId: args.currency,
          }),
        );
        return;
      }
    }
  } catch (error) {
    if (constraintViolationOf(error)?.constraint === 'users_email_lower_key') {
      throw new Error(`a user with e-mail ${args.email} already exists; pass another --email`);
    }
    throw error;
  } finally {
    await dataSource.destroy();
  }
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(
    `provision: ${message}${message.includes('does not exist') ? ' (run the migrate command first)' : ''}\n`,
  );
  process.exitCode = 1;
});
