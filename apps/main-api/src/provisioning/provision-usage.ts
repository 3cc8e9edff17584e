// No imports: `--help` answers before the command loads main-api (a second and more of modules).

/** What `--help` prints. */
export const PROVISION_USAGE = [
  "Creates a company (its first C-Level user and an API client) or adds credentials to one, in main-api's",
  'database (DATABASE_URL; main-api migrated). Prints one JSON document on stdout, the only time a password',
  'or secret is shown; anything else goes to stderr. Exit code 0, 1 on failure, 2 for a bad command line.',
  '',
  'usage: node dist/apps/main-api/apps/main-api/src/provisioning/provision.cli.js <options>',
  '       (from a checkout: npm run -s provision -- <options>)',
  '  --company "Acme" [--email ceo@acme.test] [--first-name Ada] [--last-name Lovelace] [--password <12+ chars>] [--currency 1] [--if-absent]',
  '  --add-user --company-id 1 --email pm@acme.test [--first-name Pat] [--last-name Doe] [--role 3] [--password <12+ chars>]',
  '  --add-client --company-id 1 [--name "CRM sync"] [--role 1]',
  '  --add-app --company-id 1 --redirect-uri http://localhost:5173/callback [--redirect-uri …] [--name "Web app"]',
  '  --revoke-app --company-id 1 --client-id app_…',
  '',
  '  --role       1 C-Level, 2 Director, 3 Project Manager, 4 Collaborator, 5 Freelancer, 6 Client',
  "  --currency   1 USD … 10 UYU (the company's base currency)",
  '  --if-absent  a company of that name already there prints {"companyId", "alreadyProvisioned": true}',
  '  --password   generated when omitted; a password on a command line lands in shell history',
  '  -h, --help   this text',
].join('\n');

/** `--help` or `-h` anywhere: the usage, whatever else the command line holds. */
export function wantsProvisionHelp(argv: readonly string[]): boolean {
  return argv.includes('--help') || argv.includes('-h');
}
