import { createHash, timingSafeEqual } from 'node:crypto';
import { randomToken, verifyPassword } from './password-hashing';

const SCHEME = 'sha256';

/**
 * A new API client secret: 256 random bits. With that much entropy nobody can guess it or crack its
 * hash, so a fast hash is enough and a slow one would only let guessers spend the server's CPU.
 */
export function newClientSecret(): string {
  return randomToken(32);
}

/** `sha256$<hex>`. */
export function hashClientSecret(secret: string): string {
  return `${SCHEME}$${createHash('sha256').update(secret, 'utf8').digest('hex')}`;
}

export interface ClientSecretCheck {
  matches: boolean;
  /** Stored as an older slow hash: store `hashClientSecret()` of it instead. */
  outdated: boolean;
}

/**
 * Compares in constant time. Secrets stored before SHA-256 are scrypt hashes: those are still
 * checked (slowly) and reported outdated, so the caller upgrades them on the first success.
 */
export async function verifyClientSecret(secret: string, stored: string): Promise<ClientSecretCheck> {
  if (stored.startsWith(`${SCHEME}$`)) {
    const expected = Buffer.from(stored.slice(SCHEME.length + 1), 'hex');
    const actual = createHash('sha256').update(secret, 'utf8').digest();
    return {
      matches: expected.length === actual.length && timingSafeEqual(expected, actual),
      outdated: false,
    };
  }
  const { matches } = await verifyPassword(secret, stored);
  return { matches, outdated: true };
}
