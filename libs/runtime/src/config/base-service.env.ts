import { Expose } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsString, Matches, Max, Min, MinLength } from 'class-validator';
import { ToBoolean, ToInteger } from './env-transforms';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const POSTGRES_URL = /^postgres(ql)?:\/\/\S+$/;

/** Variables every service reads. Each app extends it (and sets its own default PORT). */
export class BaseServiceEnv {
  @Expose()
  @IsIn(['development', 'test', 'production'], {
    message: 'NODE_ENV must be one of development, test, production',
  })
  NODE_ENV: 'development' | 'test' | 'production' = 'development';

  @Expose()
  @IsString({ message: 'HOST must be an interface address such as 0.0.0.0' })
  HOST = '0.0.0.0';

  @Expose()
  @ToInteger()
  @IsInt({ message: 'PORT must be an integer between 0 and 65535' })
  @Min(0, { message: 'PORT must be an integer between 0 and 65535' })
  @Max(65535, { message: 'PORT must be an integer between 0 and 65535' })
  PORT = 3000;

  @Expose()
  @IsIn(LOG_LEVELS, { message: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}` })
  LOG_LEVEL: LogLevel = 'info';

  @Expose()
  @ToBoolean()
  @IsBoolean({ message: 'LOG_PRETTY must be true or false' })
  LOG_PRETTY = false;

  @Expose()
  @Matches(POSTGRES_URL, { message: 'DATABASE_URL must be a postgres:// connection URL (it is required)' })
  DATABASE_URL!: string;

  @Expose()
  @ToInteger()
  @IsInt({ message: 'DATABASE_POOL_MAX must be an integer between 1 and 100' })
  @Min(1, { message: 'DATABASE_POOL_MAX must be an integer between 1 and 100' })
  @Max(100, { message: 'DATABASE_POOL_MAX must be an integer between 1 and 100' })
  DATABASE_POOL_MAX = 10;

  @Expose()
  @ToInteger()
  @IsInt({
    message: 'DATABASE_STATEMENT_TIMEOUT_MS must be an integer of milliseconds, 0 to 600000 (0 = none)',
  })
  @Min(0, {
    message: 'DATABASE_STATEMENT_TIMEOUT_MS must be an integer of milliseconds, 0 to 600000 (0 = none)',
  })
  @Max(600000, {
    message: 'DATABASE_STATEMENT_TIMEOUT_MS must be an integer of milliseconds, 0 to 600000 (0 = none)',
  })
  DATABASE_STATEMENT_TIMEOUT_MS = 15000;

  @Expose()
  @ToInteger()
  @IsInt({ message: 'BODY_LIMIT_BYTES must be an integer between 1024 and 52428800' })
  @Min(1024, { message: 'BODY_LIMIT_BYTES must be an integer between 1024 and 52428800' })
  @Max(52428800, { message: 'BODY_LIMIT_BYTES must be an integer between 1024 and 52428800' })
  BODY_LIMIT_BYTES = 1048576;

  @Expose()
  @ToInteger()
  @IsInt({ message: 'SHUTDOWN_GRACE_MS must be an integer of milliseconds between 0 and 120000' })
  @Min(0, { message: 'SHUTDOWN_GRACE_MS must be an integer of milliseconds between 0 and 120000' })
  @Max(120000, { message: 'SHUTDOWN_GRACE_MS must be an integer of milliseconds between 0 and 120000' })
  SHUTDOWN_GRACE_MS = 10000;

  @Expose()
  @IsString()
  @MinLength(1, { message: 'JWT_ISSUER must be a non-empty string (the `iss` main-api puts in tokens)' })
  JWT_ISSUER = 'agency-platform';

  @Expose()
  @IsString()
  @MinLength(1, { message: 'JWT_AUDIENCE must be a non-empty string (the `aud` main-api puts in tokens)' })
  JWT_AUDIENCE = 'agency-platform-api';
}
