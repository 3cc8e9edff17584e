import { Expose } from 'class-transformer';
import { Matches } from 'class-validator';
import { MainApiConsumerEnv } from '@platform/main-api-client';

export class IntegrationsEnv extends MainApiConsumerEnv {
  override PORT = 3002;

  /**
   * 32 random bytes, base64 (`openssl rand -base64 32`): encrypts the webhook signing secrets and API
   * client secrets the service keeps. Rotating it makes stored ones unreadable: set them again.
   */
  @Expose()
  @Matches(/^[A-Za-z0-9+/]{43}=$/, {
    message:
      'INTEGRATIONS_ENCRYPTION_KEY must be 32 random bytes in base64 (openssl rand -base64 32; it is required)',
  })
  INTEGRATIONS_ENCRYPTION_KEY!: string;
}

export const INTEGRATIONS_ENV = Symbol('INTEGRATIONS_ENV');
