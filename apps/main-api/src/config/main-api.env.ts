import { Expose } from 'class-transformer';
import { IsOptional, IsString } from 'class-validator';
import { BaseServiceEnv, IntegerSetting } from '@platform/runtime';

export class MainApiEnv extends BaseServiceEnv {
  override PORT = 3000;

  /** PEM of the RSA private key that signs access tokens (or JWT_PRIVATE_KEY_FILE). */
  @Expose()
  @IsOptional()
  @IsString()
  JWT_PRIVATE_KEY?: string;

  @Expose()
  @IsOptional()
  @IsString()
  JWT_PRIVATE_KEY_FILE?: string;

  /** PEM public keys of retired signing keys, still accepted until their tokens expire (rotation). */
  @Expose()
  @IsOptional()
  @IsString()
  JWT_PREVIOUS_PUBLIC_KEYS?: string;

  @Expose()
  @IsOptional()
  @IsString()
  JWT_PREVIOUS_PUBLIC_KEYS_FILE?: string;

  @IntegerSetting('ACCESS_TOKEN_TTL_SECONDS', 60, 86400, 'of seconds')
  ACCESS_TOKEN_TTL_SECONDS = 3600;

  @IntegerSetting('REFRESH_TOKEN_TTL_SECONDS', 300, 31536000, 'of seconds')
  REFRESH_TOKEN_TTL_SECONDS = 2592000;

  @IntegerSetting('TOKEN_RATE_LIMIT_PER_IP', 1, 100000)
  TOKEN_RATE_LIMIT_PER_IP = 30;

  @IntegerSetting('TOKEN_RATE_LIMIT_PER_CLIENT', 1, 100000)
  TOKEN_RATE_LIMIT_PER_CLIENT = 10;

  @IntegerSetting('TOKEN_RATE_LIMIT_WINDOW_SECONDS', 1, 3600, 'of seconds')
  TOKEN_RATE_LIMIT_WINDOW_SECONDS = 60;

  /** How long the change feed keeps events (GET /v1/events); older cursors answer 410. */
  @IntegerSetting('EVENTS_RETENTION_DAYS', 1, 3650, 'of days')
  EVENTS_RETENTION_DAYS = 30;

  /** How often a replica removes events past the retention period (one replica at a time). */
  @IntegerSetting('EVENTS_PRUNE_INTERVAL_MS', 1000, 86400000, 'of milliseconds')
  EVENTS_PRUNE_INTERVAL_MS = 3600000;
}

export const MAIN_API_ENV = Symbol('MAIN_API_ENV');
