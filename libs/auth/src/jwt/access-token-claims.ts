import { ROLE_IDS, type Role } from '@platform/contracts';
import { ACCESS_TOKEN_ALGORITHM, isAccessTokenType } from '../keys/jwk';
import type { AccessTokenClaims, Principal } from '../principal/principal';

const SUBJECT = /^(user|client):([1-9]\d{0,9})$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Rejections that passport reports as "info"; the guard turns them into 401 messages. */
export class InvalidTokenError extends Error {}

/**
 * The `kid` of a token whose header says it is one of the platform's access tokens: RS256 only
 * (`none` and HMAC are refused before any key is looked up) and `typ` too (RFC 9068, RFC 8725
 * §3.11); undefined for any other.
 */
export function accessTokenKeyId(rawToken: string): string | undefined {
  const header = decodeHeader(rawToken);
  return header &&
    header.alg === ACCESS_TOKEN_ALGORITHM &&
    isAccessTokenType(header.typ) &&
    typeof header.kid === 'string'
    ? header.kid
    : undefined;
}

/** The principal of a verified token's claims; throws InvalidTokenError when they are malformed. */
export function principalOfClaims(claims: Partial<AccessTokenClaims>): Principal {
  const subject = typeof claims.sub === 'string' ? SUBJECT.exec(claims.sub) : null;
  if (
    !subject ||
    !Number.isSafeInteger(claims.company_id) ||
    (claims.company_id ?? 0) < 1 ||
    !ROLE_IDS.includes(claims.role_id as Role) ||
    typeof claims.jti !== 'string' ||
    (claims.sid !== undefined && (typeof claims.sid !== 'string' || !UUID.test(claims.sid))) ||
    (claims.epoch !== undefined && !(Number.isSafeInteger(claims.epoch) && claims.epoch >= 0))
  ) {
    throw new InvalidTokenError('malformed claims');
  }
  const id = Number(subject[2]);
  return {
    subject: claims.sub as string,
    companyId: claims.company_id as number,
    roleId: claims.role_id as Role,
    ...(subject[1] === 'user' ? { userId: id } : { clientId: id }),
    tokenId: claims.jti,
    ...(claims.sid !== undefined && { sessionId: claims.sid }),
    epoch: claims.epoch ?? 0,
  };
}

function decodeHeader(rawToken: string): { alg?: unknown; typ?: unknown; kid?: unknown } | undefined {
  try {
    const header: unknown = JSON.parse(
      Buffer.from(rawToken.split('.')[0] ?? '', 'base64url').toString('utf8'),
    );
    return typeof header === 'object' && header !== null ? header : undefined;
  } catch {
    return undefined;
  }
}
