import type { Role } from '@platform/contracts';

/** Who is calling, from a verified access token. The company is the tenant of every query. */
export interface Principal {
  /** `user:<id>` or `client:<id>`. */
  subject: string;
  companyId: number;
  roleId: Role;
  userId?: number;
  clientId?: number;
  /** The token's `jti`. */
  tokenId: string;
}

/** Claims of the platform's access tokens (decisions §2). */
export interface AccessTokenClaims {
  iss: string;
  aud: string;
  sub: string;
  company_id: number;
  role_id: number;
  iat: number;
  exp: number;
  jti: string;
}
