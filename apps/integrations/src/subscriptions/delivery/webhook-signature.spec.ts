import { newSigningSecret, webhookSignature } from './webhook-signature';

describe('webhook signatures (Standard Webhooks, v1 HMAC-SHA256)', () => {
  it("reproduces the specification's published test vector", () => {
    expect(
      webhookSignature(
        'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        'msg_p5jXN8AQM9LWM0D4loKWxJek',
        1614265330,
        '{"test": 2432232314}',
      ),
    ).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('signs the id, the timestamp and the body: changing any one changes the signature', () => {
    const secret = newSigningSecret();
    const base = webhookSignature(secret, 'msg_1', 1700000000, '{"a":1}');

    expect(webhookSignature(secret, 'msg_2', 1700000000, '{"a":1}')).not.toBe(base);
    expect(webhookSignature(secret, 'msg_1', 1700000001, '{"a":1}')).not.toBe(base);
    expect(webhookSignature(secret, 'msg_1', 1700000000, '{"a":2}')).not.toBe(base);
    expect(webhookSignature(newSigningSecret(), 'msg_1', 1700000000, '{"a":1}')).not.toBe(base);
  });

  it('makes secrets of 32 random bytes in base64 behind whsec_', () => {
    const secret = newSigningSecret();

    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(newSigningSecret()).not.toBe(secret);
  });

  it('refuses a secret without its prefix', () => {
    expect(() => webhookSignature('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_1', 1, '{}')).toThrow('whsec_');
  });
});
