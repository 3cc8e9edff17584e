import { Console } from 'node:console';
import { PROVISION_USAGE, wantsProvisionHelp } from './provision-usage';

/**
 * `node dist/apps/main-api/apps/main-api/src/provisioning/provision.cli.js --company "Acme"` (in the
 * image, or from a checkout: `npm run -s provision -- …`). Prints `{companyId, userId, email,
 * password, apiKey, clientSecret}` as JSON on stdout. With `--if-absent`, an existing company of that
 * name prints `{companyId, alreadyProvisioned: true}` instead (the local start uses it). `--add-user`
 * and `--add-client` add credentials to an existing company (`--company-id`); `--add-app` registers a
 * browser app (public client, code + PKCE) and prints its `clientId`; `--revoke-app` revokes one
 * (`--client-id`), ending the logins started through it. `--help` prints the usage.
 */
async function main(argv: string[]): Promise<number> {
  if (wantsProvisionHelp(argv)) {
    // Without loading main-api, which takes most of a run.
    process.stdout.write(`${PROVISION_USAGE}\n`);
    return 0;
  }
  // stdout carries the JSON document only, so that `| jq` works and a secret shown once is not lost
  // among log lines: whatever a library logs through the console goes to stderr.
  globalThis.console = new Console({ stdout: process.stderr, stderr: process.stderr });
  await import('reflect-metadata');
  const { runProvisionCommand } = await import('./provision-command.js');
  return runProvisionCommand(argv, process.env, {
    stdout: (text: string) => process.stdout.write(text),
    stderr: (text: string) => process.stderr.write(text),
  });
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`provision: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
