export interface JwtSettings {
  issuer: string;
  audience: string;
  /** Tolerated clock difference between main-api and this service. */
  clockToleranceSeconds?: number;
}

export const JWT_SETTINGS = Symbol('JWT_SETTINGS');
