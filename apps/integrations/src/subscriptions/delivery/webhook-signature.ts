import { createHmac, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

/** A new signing secret, Standard Webhooks style: `whsec_` and 32 random bytes in base64. */
export function newSigningSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/**
 * The `webhook-signature` header of one attempt (Standard Webhooks, symmetric): `v1,` and the base64
 * HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>`, keyed with the secret's bytes (the
 * base64 after `whsec_`). The timestamp is the attempt's, so every attempt is signed anew.
 */
export function webhookSignature(secret: string, webhookId: string, timestamp: number, body: string): string {
  if (!secret.startsWith(SECRET_PREFIX)) {
    throw new Error('not a whsec_ signing secret');
  }
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  const digest = createHmac('sha256', key).update(`${webhookId}.${timestamp}.${body}`).digest('base64');
  return `v1,${digest}`;
}

/** The `webhook-id` of every attempt of a delivery: stable across retries and replays. */
export function webhookIdOf(deliveryId: string): string {
  return `msg_${deliveryId}`;
}
