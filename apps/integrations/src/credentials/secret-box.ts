import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** Sealed without associated data: still opened, never written any more (see SealedIn). */
const UNBOUND = 'v1';
/** Sealed with its place (SealedIn) as associated data. */
const BOUND = 'v2';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Where a sealed value is stored: its company, table, row id and column. Bound to the ciphertext as
 * GCM associated data, so a value copied to another row, company or column (by anyone who can write
 * the table but does not hold the key) no longer opens, instead of handing one row's secret to
 * another. The column is part of it so that a row's two secrets cannot be swapped either.
 */
export interface SealedIn {
  companyId: number;
  table: string;
  id: string;
  column: string;
}

/**
 * Authenticated encryption (AES-256-GCM) of the secrets the service must be able to read back: a
 * webhook signing secret is needed in clear to check a signature, so it cannot be hashed.
 * Stored as `v2.<iv>.<tag>.<ciphertext>` (base64url), bound to its place (SealedIn). Values written
 * before places were bound are `v1.…` (no associated data): they still open, and are written again
 * as v2 when their row is next written (webhook sources also when they are next used).
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(base64Key: string) {
    this.key = Buffer.from(base64Key, 'base64');
    if (this.key.length !== 32) {
      throw new Error('the encryption key must be 32 bytes');
    }
  }

  /**
   * Seals `plaintext` for `place`. Without a place the value is sealed unbound (v1), the format of
   * values sealed before issue 20: kept for tests of reading them; the services always pass one.
   */
  seal(plaintext: string, place?: SealedIn): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES });
    if (place) {
      cipher.setAAD(associatedData(place));
    }
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [place ? BOUND : UNBOUND, iv, cipher.getAuthTag(), ciphertext]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  /**
   * Opens a value sealed by `seal`: a bound one only with the place it was sealed for, an unbound
   * (older) one whatever the place. Throws on anything else, a shortened tag included.
   */
  open(sealed: string, place?: SealedIn): string {
    const parts = sealed.split('.');
    const [version, iv, tag, ciphertext] = parts.map((part, index) =>
      index === 0 ? part : Buffer.from(part, 'base64url'),
    ) as [string, Buffer?, Buffer?, Buffer?];
    // GCM accepts tags of 4 to 16 bytes unless told otherwise: a stored tag cut short would make
    // forging easier, so only a full one is accepted (and the decipher is pinned to it as well).
    if (
      parts.length !== 4 ||
      (version !== UNBOUND && version !== BOUND) ||
      iv?.length !== IV_BYTES ||
      tag?.length !== TAG_BYTES ||
      ciphertext === undefined
    ) {
      throw new Error('not a sealed secret');
    }
    if (version === BOUND && !place) {
      throw new Error('this secret is bound to its row: open it with its place');
    }
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES });
    if (version === BOUND && place) {
      decipher.setAAD(associatedData(place));
    }
    decipher.setAuthTag(tag);
    try {
      return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
    } catch {
      throw new Error('the sealed secret does not open (another key, or another row, company or column)');
    }
  }

  /** Whether `sealed` is bound to its place; an unbound one is worth sealing again with it. */
  isBound(sealed: string): boolean {
    return sealed.startsWith(`${BOUND}.`);
  }
}

function associatedData(place: SealedIn): Buffer {
  const parts = [String(place.companyId), place.table, place.id, place.column];
  if (
    !Number.isSafeInteger(place.companyId) ||
    parts.some((part) => part.length === 0 || part.includes(':'))
  ) {
    // Unambiguous by construction: `1:a:b:c` can only be read one way.
    throw new Error('a sealed place needs a company id and a table, id and column without ":"');
  }
  return Buffer.from(parts.join(':'), 'utf8');
}
