import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

export interface SignedDelivery {
  /** The source's signing secret (`whsec_…`). */
  secret: string;
  eventId: string;
  /** Unix seconds, as sent. */
  timestamp: number;
  body: Buffer;
  /** The signature header as sent. */
  signature: string;
}

/**
 * How a delivery proved itself:
 * - `standard`: Standard Webhooks, the event id signed with the timestamp and the body;
 * - `documented`: the older documented form, timestamp and body only. `replayKey` identifies what
 *   was signed, so that the receiver can refuse the same signature under another event id.
 */
export type CheckedSignature = { form: 'standard' } | { form: 'documented'; replayKey: Buffer };

/**
 * Checks an incoming webhook's signature; undefined when it does not match. Two forms are accepted:
 *
 * - `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">` keyed with the bytes of the base64 after
 *   `whsec_`: Standard Webhooks, the form this service signs its own deliveries with. Several may be
 *   sent, space-separated (the sender rotating its secret); one matching is enough.
 * - `sha256=<hex HMAC-SHA256 of "<timestamp>.<body>">` keyed with the secret as text: the form
 *   documented first (docs/spec/decisions.md §7, README). It does not cover the event id, which the receiver
 *   deduplicates on, so on its own a captured delivery could be sent again under a new id within
 *   the replay window and be applied a second time. It stays accepted for the senders built on it;
 *   the receiver binds its id instead (a signature is accepted with one event id only).
 */
export function checkSignature(delivery: SignedDelivery): CheckedSignature | undefined {
  const documented = /^sha256=([0-9a-f]{64})$/.exec(delivery.signature)?.[1];
  if (documented) {
    const expected = createHmac('sha256', delivery.secret)
      .update(`${delivery.timestamp}.`)
      .update(delivery.body)
      .digest();
    return timingSafeEqual(expected, Buffer.from(documented, 'hex'))
      ? { form: 'documented', replayKey: createHash('sha256').update(expected).digest() }
      : undefined;
  }
  if (!delivery.secret.startsWith(SECRET_PREFIX)) {
    return undefined;
  }
  // Node's base64 decoder also reads base64url: the secrets of sources set up before this change.
  const key = Buffer.from(delivery.secret.slice(SECRET_PREFIX.length), 'base64');
  const expected = createHmac('sha256', key)
    .update(`${delivery.eventId}.${delivery.timestamp}.`)
    .update(delivery.body)
    .digest();
  const matches = delivery.signature
    .split(' ')
    .map((entry) => /^v1,([A-Za-z0-9+/]{43}=)$/.exec(entry)?.[1])
    .some(
      (candidate) => candidate !== undefined && timingSafeEqual(expected, Buffer.from(candidate, 'base64')),
    );
  return matches ? { form: 'standard' } : undefined;
}
