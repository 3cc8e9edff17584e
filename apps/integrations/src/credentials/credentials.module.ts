import { Module } from '@nestjs/common';
import { INTEGRATIONS_ENV, type IntegrationsEnv } from '../config/integrations.env';
import { ApiClientVerifier } from './api-client-verifier';
import { MainApiTokens } from './main-api-tokens';
import { SecretBox } from './secret-box';

/** The credentials the service keeps for others: sealed secrets, API client tokens and their check. */
@Module({
  providers: [
    MainApiTokens,
    ApiClientVerifier,
    {
      provide: SecretBox,
      useFactory: (env: IntegrationsEnv) => new SecretBox(env.INTEGRATIONS_ENCRYPTION_KEY),
      inject: [INTEGRATIONS_ENV],
    },
  ],
  exports: [MainApiTokens, ApiClientVerifier, SecretBox],
})
export class CredentialsModule {}
