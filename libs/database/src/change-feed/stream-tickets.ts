import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

/** A ticket as the stream's URL carries it: 32 random bytes, base64url. */
export const STREAM_TICKET_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** An access token encrypted under a key only its ticket gives (AES-256-GCM). */
export interface SealedToken {
  ciphertext: Buffer;
  iv: Buffer;
  tag: Buffer;
}

const SEAL_INFO = 'event-stream-token';

export function newStreamTicket(): string {
  return randomBytes(32).toString('base64url');
}

/** What the database keeps of a ticket: its SHA-256, so a read of the table opens no stream. */
export function hashOfStreamTicket(ticket: string): string {
  return createHash('sha256').update(ticket).digest('hex');
}

/**
 * The token, encrypted under HKDF-SHA256(ticket): the database keeps only the ticket's hash, so the
 * stored token cannot be read without the ticket that only the browser holds.
 */
export function sealToken(ticket: string, token: string): SealedToken {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(ticket), iv);
  const ciphertext = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
  return { ciphertext, iv, tag: cipher.getAuthTag() };
}

/** The token sealed with this ticket; undefined when it was sealed with another or altered since. */
export function openSealedToken(ticket: string, sealed: SealedToken): string | undefined {
  try {
    // A tag of 16 bytes and no fewer: GCM would otherwise take a truncated one, easier to forge.
    const decipher = createDecipheriv('aes-256-gcm', keyOf(ticket), sealed.iv, { authTagLength: 16 });
    decipher.setAuthTag(sealed.tag);
    return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

function keyOf(ticket: string): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(ticket, 'base64url'), Buffer.alloc(0), SEAL_INFO, 32));
}
