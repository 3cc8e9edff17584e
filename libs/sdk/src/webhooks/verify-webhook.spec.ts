import { createHmac, randomBytes } from 'node:crypto';
import { verifyWebhook, WebhookVerificationError } from './verify-webhook';

/** The sender's side, written as integrations signs (apps/integrations/.../webhook-signature.ts). */
function sign(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

const secret = `whsec_${randomBytes(32).toString('base64')}`;
const now = 1_800_000_000;
const clock = { now: () => now * 1000 };
const body = JSON.stringify({
  type: 'projects.updated',
  timestamp: '2027-01-15T10:00:00.000Z',
  data: { entity: 'projects', id: 7, external_id: null, kind: 'updated', changed_fields: ['name'] },
});

function headersFor(signature: string, timestamp = now, id = 'msg_1'): Record<string, string> {
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature };
}

describe('verifyWebhook (Standard Webhooks, v1 HMAC-SHA256)', () => {
  it("accepts the specification's published test vector", async () => {
    const event = await verifyWebhook(
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      {
        'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
        'webhook-timestamp': '1614265330',
        'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
      },
      '{"test": 2432232314}',
      { now: () => 1614265330 * 1000 },
    );

    expect(event).toEqual({ test: 2432232314 });
  });

  it('accepts a delivery signed as integrations signs it, and answers its parsed body', async () => {
    const event = await verifyWebhook(secret, headersFor(sign(secret, 'msg_1', now, body)), body, clock);

    expect(event.type).toBe('projects.updated');
    expect(event.data).toMatchObject({ entity: 'projects', id: 7 });
  });

  it('takes fetch Headers and raw bytes as well as Node headers and strings', async () => {
    const headers = new Headers(headersFor(sign(secret, 'msg_1', now, body)));

    await expect(
      verifyWebhook(secret, headers, new TextEncoder().encode(body), clock),
    ).resolves.toMatchObject({
      type: 'projects.updated',
    });
  });

  it('refuses a tampered body, id or timestamp', async () => {
    const signature = sign(secret, 'msg_1', now, body);
    const tampered = body.replace('"id":7', '"id":8');

    await expect(verifyWebhook(secret, headersFor(signature), tampered, clock)).rejects.toThrow(
      'no webhook-signature entry matches',
    );
    await expect(verifyWebhook(secret, headersFor(signature, now, 'msg_2'), body, clock)).rejects.toThrow(
      WebhookVerificationError,
    );
    await expect(verifyWebhook(secret, headersFor(signature, now - 1), body, clock)).rejects.toThrow(
      WebhookVerificationError,
    );
  });

  it('refuses a delivery signed with another secret', async () => {
    const other = `whsec_${randomBytes(32).toString('base64')}`;

    await expect(
      verifyWebhook(secret, headersFor(sign(other, 'msg_1', now, body)), body, clock),
    ).rejects.toThrow('no webhook-signature entry matches');
  });

  it('refuses a correctly signed delivery whose timestamp is more than five minutes away', async () => {
    for (const timestamp of [now - 301, now + 301]) {
      await expect(
        verifyWebhook(secret, headersFor(sign(secret, 'msg_1', timestamp, body), timestamp), body, clock),
      ).rejects.toThrow('outside the tolerance');
    }
    // Just inside the five minutes.
    await expect(
      verifyWebhook(secret, headersFor(sign(secret, 'msg_1', now - 300, body), now - 300), body, clock),
    ).resolves.toBeDefined();
  });

  it('accepts a header listing several signatures when one of them matches (a secret rotation)', async () => {
    const old = `whsec_${randomBytes(32).toString('base64')}`;
    const listed = [
      sign(old, 'msg_1', now, body),
      'v2,c29tZXRoaW5nIGVsc2U=',
      'v1,not*base64',
      sign(secret, 'msg_1', now, body),
    ].join(' ');

    await expect(verifyWebhook(secret, headersFor(listed), body, clock)).resolves.toMatchObject({
      type: 'projects.updated',
    });
    await expect(
      verifyWebhook(secret, headersFor([sign(old, 'msg_1', now, body), 'v1,'].join(' ')), body, clock),
    ).rejects.toThrow('no webhook-signature entry matches');
  });

  it('refuses a delivery without its three headers, and a malformed timestamp', async () => {
    const signature = sign(secret, 'msg_1', now, body);
    const { 'webhook-id': _id, ...withoutId } = headersFor(signature);

    await expect(verifyWebhook(secret, withoutId, body, clock)).rejects.toThrow('missing webhook-id');
    await expect(
      verifyWebhook(secret, { ...headersFor(signature), 'webhook-timestamp': '1.8e9' }, body, clock),
    ).rejects.toThrow('not a Unix time');
  });
});
