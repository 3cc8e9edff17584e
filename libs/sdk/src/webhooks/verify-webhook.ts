import type { IntegrationsApi } from '@platform/api-clients';

/** The body of an outbound webhook from the integrations service. */
export type OutboundWebhook = IntegrationsApi.components['schemas']['OutboundWebhookDto'];

/** Standard Webhooks' default: a delivery older (or newer) than five minutes is refused. */
export const WEBHOOK_TOLERANCE_SECONDS = 5 * 60;

const SECRET_PREFIX = 'whsec_';

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

/** Node's `request.headers`, or a fetch `Headers` (a Request in a worker or an edge function). */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface WebhookVerificationOptions {
  toleranceSeconds?: number;
  /** The clock, in milliseconds (tests). */
  now?: () => number;
}

/**
 * Verifies a delivery as Standard Webhooks signs it (and as integrations does): `webhook-signature`
 * lists space-separated `v1,<base64>` entries, one of which must be the HMAC-SHA256 of
 * `<webhook-id>.<webhook-timestamp>.<raw body>` keyed with the base64 after `whsec_`; the
 * timestamp must be within the tolerance, so a captured delivery cannot be replayed later. Answers
 * the parsed body; throws WebhookVerificationError otherwise. Dedupe on `webhook-id`: retries keep it.
 *
 * `rawBody` must be the bytes as received: a body parsed and serialized again signs differently.
 * WebCrypto (not node:crypto) keeps the SDK usable in browsers and edge runtimes; its HMAC verify
 * compares in constant time.
 */
export async function verifyWebhook<Event = OutboundWebhook>(
  secret: string,
  headers: WebhookHeaders,
  rawBody: string | Uint8Array,
  options: WebhookVerificationOptions = {},
): Promise<Event> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (id === undefined || timestamp === undefined || signatures === undefined) {
    throw new WebhookVerificationError('missing webhook-id, webhook-timestamp or webhook-signature');
  }
  if (!/^\d+$/.test(timestamp)) {
    throw new WebhookVerificationError('webhook-timestamp is not a Unix time in seconds');
  }
  const nowSeconds = (options.now ?? Date.now)() / 1000;
  if (Math.abs(nowSeconds - Number(timestamp)) > (options.toleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS)) {
    throw new WebhookVerificationError('webhook-timestamp is outside the tolerance');
  }
  const body = typeof rawBody === 'string' ? new TextEncoder().encode(rawBody) : rawBody;
  const signed = concat(new TextEncoder().encode(`${id}.${timestamp}.`), body);
  const key = await crypto.subtle.importKey(
    'raw',
    secretBytes(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['verify'],
  );
  // Several entries while a secret rotates: any v1 entry that verifies is enough.
  for (const entry of signatures.split(' ')) {
    const [version, signature] = entry.split(',', 2);
    const bytes = version === 'v1' && signature !== undefined ? base64Bytes(signature) : undefined;
    if (bytes !== undefined && (await crypto.subtle.verify('HMAC', key, bytes, signed))) {
      return JSON.parse(new TextDecoder().decode(body)) as Event;
    }
  }
  throw new WebhookVerificationError('no webhook-signature entry matches the body');
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (headers instanceof Headers) {
    return headers.get(name) ?? undefined;
  }
  const value = Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  return Array.isArray(value) ? value[0] : value;
}

function secretBytes(secret: string): Uint8Array<ArrayBuffer> {
  const bytes = base64Bytes(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret);
  if (bytes === undefined || bytes.length === 0) {
    throw new WebhookVerificationError('the signing secret is not whsec_ and base64');
  }
  return bytes;
}

function base64Bytes(text: string): Uint8Array<ArrayBuffer> | undefined {
  try {
    return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
  } catch {
    return undefined;
  }
}

function concat(head: Uint8Array, tail: Uint8Array): Uint8Array<ArrayBuffer> {
  const joined = new Uint8Array(head.length + tail.length);
  joined.set(head);
  joined.set(tail, head.length);
  return joined;
}
