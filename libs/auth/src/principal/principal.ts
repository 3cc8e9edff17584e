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
  /** The token's `sid`: the refresh-token family (login) it came from, when it came from one. */
  sessionId?: string;
  /** The token's `epoch`: below the subject's current epoch, the token is revoked. */
  epoch: number;
}

/** Claims of the platform's access tokens (docs/spec/decisions.md §2). */
export interface AccessTokenClaims {
  iss: string;
  aud: string;
  sub: string;
  company_id: number;
  role_id: number;
  iat: number;
  exp: number;
  jti: string;
  /** The login (refresh-token family) the token belongs to: revoking the family ends the token. */
  sid?: string;
  /** RFC 9068: the client the token was issued to (API key, browser app client_id, or `password-grant`). */
  client_id?: string;
  /** The subject's token epoch at issue (absent means 0). */
  epoch?: number;
}
