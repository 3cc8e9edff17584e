import { Module, type DynamicModule } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { MainApiEnv } from '../config/main-api.env';
import { CredentialsService } from './credentials.service';
import { JwksController } from './jwks.controller';
import { AccessTokenSigner } from './keys/access-token-signer';
import type { SigningKeys } from './keys/signing-keys';
import { OAuthController } from './oauth.controller';
import { OAuthService } from './oauth.service';
import { SIGNING_KEYS } from './oauth.tokens';
import { PostgresThrottlerStorage } from './rate-limit/postgres-throttler.storage';
import { RateLimitBucket } from './rate-limit/rate-limit-bucket.entity';
import { tokenThrottlers } from './rate-limit/token-throttlers';
import { RefreshToken } from './refresh-tokens/refresh-token.entity';
import { RefreshTokensService } from './refresh-tokens/refresh-tokens.service';

/** The token endpoints and the JWKS: main-api as the platform's OAuth authorization server. */
@Module({})
export class OAuthModule {
  static forRoot(env: MainApiEnv, keys: SigningKeys): DynamicModule {
    return {
      module: OAuthModule,
      imports: [
        TypeOrmModule.forFeature([RefreshToken, RateLimitBucket]),
        ThrottlerModule.forRootAsync({
          inject: [DataSource],
          useFactory: (dataSource: DataSource) => ({
            ...tokenThrottlers(env),
            storage: new PostgresThrottlerStorage(dataSource),
          }),
        }),
      ],
      controllers: [OAuthController, JwksController],
      providers: [
        { provide: SIGNING_KEYS, useValue: keys },
        {
          provide: AccessTokenSigner,
          useValue: new AccessTokenSigner(keys, {
            issuer: env.JWT_ISSUER,
            audience: env.JWT_AUDIENCE,
            ttlSeconds: env.ACCESS_TOKEN_TTL_SECONDS,
          }),
        },
        CredentialsService,
        RefreshTokensService,
        OAuthService,
      ],
    };
  }
}
