import { Module, type DynamicModule, type Provider, type Type } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { ClsService, ClsServiceManager } from 'nestjs-cls';
import { JwksKeySource, type JwksKeySourceOptions } from './keys/jwks-key-source';
import { VerificationKeySource } from './keys/verification-key-source';
import { AccessTokenVerifier } from './jwt/access-token-verifier';
import { JwtAuthGuard } from './jwt/jwt-auth.guard';
import { JWT_SETTINGS, type JwtSettings } from './jwt/jwt-settings';
import { JwtStrategy } from './jwt/jwt.strategy';
import { PermissionsGuard } from './permissions/permissions.guard';
import { CompanyBodyGuard } from './principal/company-body.guard';
import { PrincipalContext } from './principal/principal-context';
import { TenantQuotaGuard } from './quota/tenant-quota.guard';
import { TenantQuotas, type QuotaSettings } from './quota/tenant-quotas';
import { RemoteTokenStatus, type RemoteTokenStatusOptions } from './revocation/remote-token-status';
import { TokenStatusSource } from './revocation/token-status-source';

export interface AuthModuleOptions extends JwtSettings {
  /** Where verification keys come from: main-api's JWKS URL, or a provider (main-api's own keys). */
  keys: { jwks: JwksKeySourceOptions } | { source: VerificationKeySource };
  /** Where revocation is checked: main-api's own database (a class), or main-api over HTTP. */
  tokenStatus: { remote: RemoteTokenStatusOptions } | { useClass: Type<TokenStatusSource> };
  /** Each company's request quota on this service (TenantQuotaGuard); none when absent. */
  quota?: QuotaSettings;
}

/**
 * Authentication for a service: every route needs a valid access token unless `@Public()`, and
 * `@RequirePermission()` applies the role matrix. Guards run in this order: JWT, the company's quota,
 * then permissions.
 */
@Module({})
export class AuthModule {
  static forRoot(options: AuthModuleOptions): DynamicModule {
    const keySource: Provider = {
      provide: VerificationKeySource,
      useValue: 'jwks' in options.keys ? new JwksKeySource(options.keys.jwks) : options.keys.source,
    };
    const tokenStatus: Provider =
      'remote' in options.tokenStatus
        ? { provide: TokenStatusSource, useValue: new RemoteTokenStatus(options.tokenStatus.remote) }
        : { provide: TokenStatusSource, useClass: options.tokenStatus.useClass };
    return {
      module: AuthModule,
      global: true,
      imports: [PassportModule],
      providers: [
        // The request context's service, without `ClsModule.forRoot()`: unmounted, that still adds a
        // no-op global guard and a no-op global interceptor, and the interceptor alone put an rxjs
        // pipeline on every request (bench/README.md, round 3). The context itself is opened per
        // request by `createServiceApp` (libs/runtime).
        { provide: ClsService, useValue: ClsServiceManager.getClsService() },
        {
          provide: JWT_SETTINGS,
          useValue: {
            issuer: options.issuer,
            audience: options.audience,
            clockToleranceSeconds: options.clockToleranceSeconds,
          },
        },
        keySource,
        tokenStatus,
        JwtStrategy,
        AccessTokenVerifier,
        PrincipalContext,
        {
          provide: TenantQuotas,
          useValue: new TenantQuotas(
            options.quota ?? { requestsPerMinute: 0, replicas: 1, overrides: new Map() },
          ),
        },
        { provide: APP_GUARD, useClass: JwtAuthGuard },
        { provide: APP_GUARD, useClass: TenantQuotaGuard },
        { provide: APP_GUARD, useClass: PermissionsGuard },
        { provide: APP_GUARD, useClass: CompanyBodyGuard },
      ],
      exports: [PrincipalContext, VerificationKeySource, ClsService, TokenStatusSource, AccessTokenVerifier],
    };
  }
}
