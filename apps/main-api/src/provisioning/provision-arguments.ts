import { MayBeAbsent } from '@platform/contracts';
import { parseArgs } from 'node:util';
import { plainToInstance } from 'class-transformer';
import { redirectUriProblem } from '../oauth/authorization/redirect-uris';
import { IsBoolean, IsEmail, IsIn, IsInt, IsString, Length, Max, Min, validateSync } from 'class-validator';

export class ProvisionArguments {
  @IsIn(['company', 'add-user', 'add-client', 'add-app', 'revoke-app'])
  mode!: 'company' | 'add-user' | 'add-client' | 'add-app' | 'revoke-app';

  @MayBeAbsent()
  @IsString()
  @Length(1, 200, { message: '--company must be a name of 1 to 200 characters' })
  company?: string;

  @MayBeAbsent()
  @IsInt({ message: '--company-id must be the id of an existing company' })
  @Min(1, { message: '--company-id must be the id of an existing company' })
  companyId?: number;

  @IsEmail({}, { message: '--email must be an e-mail address' })
  email!: string;

  @IsString()
  @Length(1, 100, { message: '--first-name must be 1 to 100 characters' })
  firstName!: string;

  @IsString()
  @Length(1, 100, { message: '--last-name must be 1 to 100 characters' })
  lastName!: string;

  @MayBeAbsent()
  @IsString()
  @Length(12, 200, { message: '--password must be 12 to 200 characters (omit it to generate one)' })
  password?: string;

  @IsInt({ message: '--currency must be a currency id (1 USD … 10 UYU)' })
  @Min(1, { message: '--currency must be a currency id (1 USD … 10 UYU)' })
  @Max(10, { message: '--currency must be a currency id (1 USD … 10 UYU)' })
  currency!: number;

  @IsInt({
    message:
      '--role must be a role id: 1 C-Level, 2 Director, 3 Project Manager, 4 Collaborator, 5 Freelancer, 6 Client',
  })
  @Min(1, {
    message:
      '--role must be a role id: 1 C-Level, 2 Director, 3 Project Manager, 4 Collaborator, 5 Freelancer, 6 Client',
  })
  @Max(6, {
    message:
      '--role must be a role id: 1 C-Level, 2 Director, 3 Project Manager, 4 Collaborator, 5 Freelancer, 6 Client',
  })
  role!: number;

  @IsString()
  @Length(1, 200, { message: '--name must be 1 to 200 characters' })
  name!: string;

  /** `--add-app`: the exact redirect URIs (the option may be repeated). */
  @IsString({ each: true })
  redirectUris!: string[];

  /** `--revoke-app`: the app's client_id. */
  @MayBeAbsent()
  @IsString()
  @Length(1, 64, { message: '--client-id must be a browser app client_id' })
  clientId?: string;

  @IsBoolean()
  ifAbsent!: boolean;
}

/** A command line the CLI cannot run: one line, answered with exit code 2 and a pointer to --help. */
export class ProvisionUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProvisionUsageError';
  }
}

/** Parses and validates the command line; throws a ProvisionUsageError (one line) on bad input. */
export function parseProvisionArguments(argv: string[]): ProvisionArguments {
  try {
    return parse(argv);
  } catch (error) {
    // node:util parseArgs refuses unknown options and missing values with ERR_PARSE_ARGS_* errors
    // (checked by code: under Jest they come from another realm's TypeError).
    const { code, message } = error as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS') && typeof message === 'string') {
      throw new ProvisionUsageError(message);
    }
    throw error;
  }
}

function parse(argv: string[]): ProvisionArguments {
  const { values } = parseArgs({
    args: argv,
    options: {
      company: { type: 'string' },
      'company-id': { type: 'string' },
      'add-user': { type: 'boolean' },
      'add-client': { type: 'boolean' },
      'add-app': { type: 'boolean' },
      'revoke-app': { type: 'boolean' },
      'client-id': { type: 'string' },
      'redirect-uri': { type: 'string', multiple: true },
      email: { type: 'string' },
      'first-name': { type: 'string' },
      'last-name': { type: 'string' },
      password: { type: 'string' },
      currency: { type: 'string' },
      role: { type: 'string' },
      name: { type: 'string' },
      'if-absent': { type: 'boolean' },
    },
    strict: true,
  });
  const modes = (['add-user', 'add-client', 'add-app', 'revoke-app'] as const).filter((name) => values[name]);
  if (modes.length > 1) {
    throw new ProvisionUsageError(
      `use one of --add-user, --add-client, --add-app and --revoke-app, not both`,
    );
  }
  const mode = (modes[0] as ProvisionArguments['mode'] | undefined) ?? 'company';
  if (mode === 'company' && values.company === undefined) {
    throw new ProvisionUsageError(`--company is required`);
  }
  if (mode !== 'company' && values['company-id'] === undefined) {
    throw new ProvisionUsageError(`--company-id is required with --${mode}`);
  }
  if (mode === 'add-app' && values['redirect-uri'] === undefined) {
    throw new ProvisionUsageError(`--redirect-uri is required with --add-app`);
  }
  const redirectProblem = (values['redirect-uri'] ?? []).map(redirectUriProblem).find(Boolean);
  if (redirectProblem !== undefined) {
    throw new ProvisionUsageError(`--redirect-uri: ${redirectProblem}`);
  }
  if (mode === 'revoke-app' && values['client-id'] === undefined) {
    throw new ProvisionUsageError(`--client-id is required with --revoke-app`);
  }
  if (mode === 'add-user' && values.email === undefined) {
    throw new ProvisionUsageError(`--email is required with --add-user`);
  }
  const companyName = values.company ?? '';
  const slug =
    companyName
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'company';
  const parsed = plainToInstance(ProvisionArguments, {
    mode,
    company: values.company,
    companyId: values['company-id'] === undefined ? undefined : Number(values['company-id']),
    email: values.email ?? `admin@${slug}.example.com`,
    firstName: values['first-name'] ?? (mode === 'company' ? 'Admin' : 'New'),
    lastName: values['last-name'] ?? (mode === 'company' ? companyName : 'User'),
    password: values.password,
    currency: values.currency === undefined ? 1 : Number(values.currency),
    role: values.role === undefined ? (mode === 'add-user' ? 4 : 1) : Number(values.role),
    name: values.name ?? (mode === 'add-app' ? 'Web app' : 'API client'),
    redirectUris: values['redirect-uri'] ?? [],
    clientId: values['client-id'],
    ifAbsent: values['if-absent'] ?? false,
  });
  const errors = validateSync(parsed);
  if (errors.length > 0) {
    throw new ProvisionUsageError(
      errors.map((error) => Object.values(error.constraints ?? {})[0]).join('; '),
    );
  }
  return parsed;
}
