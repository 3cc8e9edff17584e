import { parseArgs } from 'node:util';
import { plainToInstance } from 'class-transformer';
import {
  IsBoolean,
  IsEmail,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Max,
  Min,
  validateSync,
} from 'class-validator';

export class ProvisionArguments {
  @IsString()
  @Length(1, 200, { message: '--company must be a name of 1 to 200 characters' })
  company!: string;

  @IsEmail({}, { message: '--email must be an e-mail address' })
  email!: string;

  @IsString()
  @Length(1, 100, { message: '--first-name must be 1 to 100 characters' })
  firstName!: string;

  @IsString()
  @Length(1, 100, { message: '--last-name must be 1 to 100 characters' })
  lastName!: string;

  @IsOptional()
  @IsString()
  @Length(12, 200, { message: '--password must be 12 to 200 characters (omit it to generate one)' })
  password?: string;

  @IsInt({ message: '--currency must be a currency id (1 USD … 10 UYU)' })
  @Min(1, { message: '--currency must be a currency id (1 USD … 10 UYU)' })
  @Max(10, { message: '--currency must be a currency id (1 USD … 10 UYU)' })
  currency!: number;

  @IsBoolean()
  ifAbsent!: boolean;
}

export const PROVISION_USAGE =
  'usage: npm run provision -- --company "Acme" [--email ceo@acme.test] [--first-name Ada] [--last-name Lovelace] ' +
  '[--password <12+ chars>] [--currency 1] [--if-absent]';

/** Parses and validates the command line; throws an Error with a one-line message on bad input. */
export function parseProvisionArguments(argv: string[]): ProvisionArguments {
  const { values } = parseArgs({
    args: argv,
    options: {
      company: { type: 'string' },
      email: { type: 'string' },
      'first-name': { type: 'string' },
      'last-name': { type: 'string' },
      password: { type: 'string' },
      currency: { type: 'string' },
      'if-absent': { type: 'boolean' },
    },
    strict: true,
  });
  if (values.company === undefined) {
    throw new Error(`--company is required. ${PROVISION_USAGE}`);
  }
  const slug =
    values.company
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'company';
  const parsed = plainToInstance(ProvisionArguments, {
    company: values.company,
    email: values.email ?? `admin@${slug}.example.com`,
    firstName: values['first-name'] ?? 'Admin',
    lastName: values['last-name'] ?? values.company,
    password: values.password,
    currency: values.currency === undefined ? 1 : Number(values.currency),
    ifAbsent: values['if-absent'] ?? false,
  });
  const errors = validateSync(parsed);
  if (errors.length > 0) {
    throw new Error(errors.map((error) => Object.values(error.constraints ?? {})[0]).join('; '));
  }
  return parsed;
}
