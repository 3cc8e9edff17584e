import { Expose } from 'class-transformer';
import { IsString, MinLength } from 'class-validator';
import { BaseServiceEnv } from '@platform/runtime';

export class MainApiEnv extends BaseServiceEnv {
  override PORT = 3000;

  @Expose()
  @IsString()
  @MinLength(1, { message: 'JWT_ISSUER must be a non-empty string (the `iss` of issued tokens)' })
  JWT_ISSUER = 'agency-platform';

  @Expose()
  @IsString()
  @MinLength(1, { message: 'JWT_AUDIENCE must be a non-empty string (the `aud` of issued tokens)' })
  JWT_AUDIENCE = 'agency-platform-api';
}

export const MAIN_API_ENV = Symbol('MAIN_API_ENV');
