import { createHmac, randomBytes } from 'node:crypto';
import { newSigningSecret, webhookSignature } from '../subscriptions/delivery/webhook-signature';
import { checkSignature, type SignedDelivery } from './incoming-signature';

describe('checkSignature', () => {
  const secret = newSigningSecret();
  const body = '{"action":"create","entity":"clients","external_id":"GH-1","data":{"name":"x"}}';
  const timestamp = 1_795_600_000;
  const delivery = (signature: string, changes: Partial<SignedDelivery> = {}): SignedDelivery => ({
    secret,
    eventId: 'evt-1',
    timestamp,
    body: Buffer.from(body),
    signature,
    ...changes,
  });
  const documented = (key = secret) =>
    `sha256=${createHmac('sha256', key).update(`${timestamp}.${body}`).digest('hex')}`;

  it('accepts the Standard Webhooks form this service signs its own deliveries with', () => {
    expect(checkSignature(delivery(webhookSignature(secret, 'evt-1', timestamp, body)))).toEqual({
      form: 'standard',
    });
  });

  it('refuses a Standard Webhooks signature under another event id, timestamp or body', () => {
    const signature = webhookSignature(secret, 'evt-1', timestamp, body);

    expect(checkSignature(delivery(signature, { eventId: 'evt-2' }))).toBeUndefined();
    expect(checkSignature(delivery(signature, { timestamp: timestamp + 1 }))).toBeUndefined();
    expect(checkSignature(delivery(signature, { body: Buffer.from(`${body} `) }))).toBeUndefined();
    expect(
      checkSignature(delivery(webhookSignature(newSigningSecret(), 'evt-1', timestamp, body))),
    ).toBeUndefined();
  });

  it('accepts one matching signature among several (a sender rotating its secret)', () => {
    const old = webhookSignature(newSigningSecret(), 'evt-1', timestamp, body);
    const current = webhookSignature(secret, 'evt-1', timestamp, body);

    expect(checkSignature(delivery(`${old} ${current}`))).toEqual({ form: 'standard' });
    expect(checkSignature(delivery(`${old} v1a,${current.slice(3)}`))).toBeUndefined();
  });

  it('reads secrets handed out before, in base64url', () => {
    const key = randomBytes(32);
    const older = `whsec_${key.toString('base64url')}`;
    const signature = `v1,${createHmac('sha256', key).update(`evt-1.${timestamp}.${body}`).digest('base64')}`;

    expect(checkSignature(delivery(signature, { secret: older }))).toEqual({ form: 'standard' });
  });

  it('accepts the documented form, with a replay key that does not depend on the event id', () => {
    const first = checkSignature(delivery(documented()));
    const underAnotherId = checkSignature(delivery(documented(), { eventId: 'evt-2' }));

    expect(first).toEqual({ form: 'documented', replayKey: expect.any(Buffer) });
    expect(underAnotherId).toEqual(first);
    expect(checkSignature(delivery(documented(), { timestamp: timestamp + 1 }))).toBeUndefined();
    expect(checkSignature(delivery(documented('whsec_other')))).toBeUndefined();
  });

  it.each([
    ['nothing', ''],
    ['a bare digest', createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')],
    ['upper-case hex', documented().toUpperCase().replace('SHA256=', 'sha256=')],
    ['a short Standard Webhooks signature', 'v1,AAAA'],
    ['another scheme', `v2,${'A'.repeat(43)}=`],
  ])('refuses %s', (_case, signature) => {
    expect(checkSignature(delivery(signature))).toBeUndefined();
  });
});
