import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DeviceCookies } from '../device-cookies/device-cookies';
import type { SigningKeys } from '../keys/signing-keys';
import { SIGNING_KEYS } from '../oauth.tokens';
import { AuthorizationCode } from './authorization-code.entity';
import { AuthorizationCodesRepository } from './authorization-codes.repository';
import { AuthorizationCodes } from './authorization-codes.service';
import { AuthorizationController } from './authorization.controller';
import { AuthorizationService } from './authorization.service';
import { AuthorizeCsrf } from './authorize-csrf';
import { OAuthApp } from './oauth-app.entity';
import { OAuthAppsRepository } from './oauth-apps.repository';

/**
 * The authorization-code flow with PKCE for browser apps: registered apps, the sign-in page and the
 * codes. Imported by OAuthModule, whose token endpoint exchanges the codes; it uses OAuthModule's
 * credential checks, throttle, refresh tokens and signing key (exported by that global module).
 */
@Module({
  imports: [TypeOrmModule.forFeature([OAuthApp, AuthorizationCode])],
  controllers: [AuthorizationController],
  providers: [
    OAuthAppsRepository,
    AuthorizationCodesRepository,
    AuthorizationCodes,
    AuthorizationService,
    {
      provide: AuthorizeCsrf,
      inject: [SIGNING_KEYS],
      useFactory: (keys: SigningKeys) => new AuthorizeCsrf(keys.privateKey),
    },
    {
      provide: DeviceCookies,
      inject: [SIGNING_KEYS],
      useFactory: (keys: SigningKeys) => new DeviceCookies(keys.privateKey),
    },
  ],
  exports: [AuthorizationCodes],
})
export class AuthorizationModule {}
