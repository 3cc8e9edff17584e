import { Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { MainApiEnv } from '../config/main-api.env';
import { AuthorizationModule } from './authorization/authorization.module';
import { CredentialsRepository } from './credentials.repository';
import { CredentialsService } from './credentials.service';
import { AuthorizationServerMetadata } from './discovery/authorization-server-metadata';
import { DiscoveryController } from './discovery/discovery.controller';
import { RootMetadataRoute } from './discovery/root-metadata.route';
import { JwksController } from './jwks.controller';
import { AccessTokenSigner } from './keys/access-token-signer';
import type { SigningKeys } from './keys/signing-keys';
import { OAuthController } from './oauth.controller';
import { OAuthService } from './oauth.service';
import { SIGNING_KEYS } from './oauth.tokens';
import { LoginThrottle } from './rate-limit/login-throttle';
import { RateLimitBucket } from './rate-limit/rate-limit-bucket.entity';
import { RefreshToken } from './refresh-tokens/refresh-token.entity';
import { RefreshTokensRepository } from './refresh-tokens/refresh-tokens.repository';
import { RefreshTokensService } from './refresh-tokens/refresh-tokens.service';
import { DatabaseTokenStatus } from './revocation/database-token-status';
import { IssuedAccessTokens } from './revocation/issued-access-tokens';
import { RevokedTokens } from './revocation/revoked-tokens';
import { TokenStatusController } from './revocation/token-status.controller';
import { TokenStatusRepository } from './revocation/token-status.repository';

/**
 * The token, refresh and revocation endpoints, the JWKS and the RFC 8414 metadata: main-api as the
 * platform's OAuth authorization server.
 */
@Module({})
export class OAuthModule {
  static forRoot(env: MainApiEnv, keys: SigningKeys): DynamicModule {
    return {
      module: OAuthModule,
      // Global so the authorization-code flow (imported here) uses these same providers.
      global: true,
      imports: [TypeOrmModule.forFeature([RefreshToken, RateLimitBucket]), AuthorizationModule],
      controllers: [OAuthController, JwksController, DiscoveryController, TokenStatusController],
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
        {
          provide: LoginThrottle,
          inject: [DataSource],
          useFactory: (dataSource: DataSource) =>
            new LoginThrottle(dataSource, {
              perIp: env.TOKEN_RATE_LIMIT_PER_IP,
              perAccountAndIp: env.TOKEN_RATE_LIMIT_PER_CLIENT,
              perAccount: env.TOKEN_RATE_LIMIT_PER_ACCOUNT,
              windowSeconds: env.TOKEN_RATE_LIMIT_WINDOW_SECONDS,
            }),
        },
        {
          provide: AuthorizationServerMetadata,
          // A factory, so its boot warning goes through the service's logger.
          useFactory: () => new AuthorizationServerMetadata(env.JWT_ISSUER),
        },
        RootMetadataRoute,
        CredentialsRepository,
        CredentialsService,
        RefreshTokensRepository,
        RefreshTokensService,
        TokenStatusRepository,
        DatabaseTokenStatus,
        RevokedTokens,
        IssuedAccessTokens,
        OAuthService,
      ],
      // TokenStatusRepository: for AuthModule's DatabaseTokenStatus (main-api.module.ts).
      exports: [SIGNING_KEYS, LoginThrottle, CredentialsService, RefreshTokensService, TokenStatusRepository],
    };
  }
}
