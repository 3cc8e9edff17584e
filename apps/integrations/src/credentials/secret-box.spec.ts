import { createCipheriv, randomBytes } from 'node:crypto';
import { SecretBox, type SealedIn } from './secret-box';

describe('SecretBox', () => {
  const key = randomBytes(32).toString('base64');
  const box = new SecretBox(key);
  const place: SealedIn = {
    companyId: 1,
    table: 'webhook_sources',
    id: '9a3a8a8e-5c0c-4a3f-9d7e-2f1f0c6f1a11',
    column: 'signing_secret_sealed',
  };
  /** A value as the service sealed it before places were bound: no associated data. */
  const sealedTheOldWay = (plaintext: string) => {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', Buffer.from(key, 'base64'), iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), ciphertext]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  };
  const withPart = (sealed: string, index: number, change: (bytes: Buffer) => Buffer) => {
    const parts = sealed.split('.');
    parts[index] = change(Buffer.from(parts[index], 'base64url')).toString('base64url');
    return parts.join('.');
  };

  it('opens what it sealed for a place, with a fresh IV each time', () => {
    const first = box.seal('whsec_abc', place);
    const second = box.seal('whsec_abc', place);

    expect(first).not.toBe(second);
    expect(first).toMatch(/^v2\./);
    expect(first).not.toContain('whsec_abc');
    expect(box.open(first, place)).toBe('whsec_abc');
    expect(box.open(second, place)).toBe('whsec_abc');
    expect(box.isBound(first)).toBe(true);
  });

  it.each([
    ['another row', { id: '0b8f5a52-0000-4000-8000-000000000000' }],
    ['another company', { companyId: 2 }],
    ['another table', { table: 'webhook_subscriptions' }],
    ['the other column of the row', { column: 'client_secret_sealed' }],
  ] as [string, Partial<SealedIn>][])('does not open a value copied to %s', (_case, elsewhere) => {
    const sealed = box.seal('whsec_abc', place);

    expect(() => box.open(sealed, { ...place, ...elsewhere })).toThrow('does not open');
  });

  it('does not open a bound value without its place', () => {
    expect(() => box.open(box.seal('whsec_abc', place))).toThrow('bound to its row');
  });

  it('swaps between two rows of two companies fail both ways', () => {
    const mine = { ...place, companyId: 1, id: 'a' };
    const theirs = { ...place, companyId: 2, id: 'b' };
    const sealedMine = box.seal('mine', mine);
    const sealedTheirs = box.seal('theirs', theirs);

    expect(() => box.open(sealedTheirs, mine)).toThrow('does not open');
    expect(() => box.open(sealedMine, theirs)).toThrow('does not open');
  });

  it('still opens values sealed before places were bound, wherever they are read from', () => {
    const old = sealedTheOldWay('whsec_old');

    expect(box.open(old, place)).toBe('whsec_old');
    expect(box.open(old)).toBe('whsec_old');
    expect(box.isBound(old)).toBe(false);
    // What the call sites not given a place yet still write.
    expect(box.open(box.seal('unbound'), place)).toBe('unbound');
  });

  it.each([
    ['a tag cut to 12 bytes', (sealed: string) => withPart(sealed, 2, (tag) => tag.subarray(0, 12))],
    ['a tag cut to 4 bytes', (sealed: string) => withPart(sealed, 2, (tag) => tag.subarray(0, 4))],
    [
      'a longer tag',
      (sealed: string) => withPart(sealed, 2, (tag) => Buffer.concat([tag, Buffer.from([0])])),
    ],
    ['a short IV', (sealed: string) => withPart(sealed, 1, (iv) => iv.subarray(0, 8))],
    ['a missing part', (sealed: string) => sealed.split('.').slice(0, 3).join('.')],
    ['an extra part', (sealed: string) => `${sealed}.AA`],
    ['an unknown version', (sealed: string) => sealed.replace(/^v2/, 'v3')],
  ])('refuses %s as not a sealed secret', (_case, change) => {
    expect(() => box.open(change(box.seal('secret', place)), place)).toThrow('not a sealed secret');
  });

  it('refuses a shortened tag in values sealed the old way too', () => {
    const cut = withPart(sealedTheOldWay('secret'), 2, (tag) => tag.subarray(0, 12));

    expect(() => box.open(cut, place)).toThrow('not a sealed secret');
  });

  it('refuses a tampered value and another key', () => {
    const sealed = box.seal('secret', place);
    const flipped = withPart(sealed, 3, (ciphertext) => {
      const copy = Buffer.from(ciphertext);
      copy[0] = copy[0] ^ 1;
      return copy;
    });

    expect(() => box.open(flipped, place)).toThrow('does not open');
    expect(() => new SecretBox(randomBytes(32).toString('base64')).open(sealed, place)).toThrow(
      'does not open',
    );
    expect(() => box.open('plain', place)).toThrow('not a sealed secret');
  });

  it('needs a 32-byte key and a place that reads one way only', () => {
    expect(() => new SecretBox(randomBytes(16).toString('base64'))).toThrow('32 bytes');
    expect(() => box.seal('secret', { ...place, id: 'a:b' })).toThrow('without ":"');
  });
});
