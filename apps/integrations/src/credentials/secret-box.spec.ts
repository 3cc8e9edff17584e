import { randomBytes } from 'node:crypto';
import { SecretBox } from './secret-box';

describe('SecretBox', () => {
  const key = randomBytes(32).toString('base64');

  it('opens what it sealed, with a fresh IV each time', () => {
    const box = new SecretBox(key);

    const first = box.seal('whsec_abc');
    const second = box.seal('whsec_abc');

    expect(first).not.toBe(second);
    expect(first).not.toContain('whsec_abc');
    expect(box.open(first)).toBe('whsec_abc');
    expect(box.open(second)).toBe('whsec_abc');
  });

  it('refuses a tampered value and another key', () => {
    const sealed = new SecretBox(key).seal('secret');
    const parts = sealed.split('.');
    const flipped = Buffer.from(parts[3], 'base64url');
    flipped[0] = flipped[0] ^ 1;

    expect(() =>
      new SecretBox(key).open([...parts.slice(0, 3), flipped.toString('base64url')].join('.')),
    ).toThrow();
    expect(() => new SecretBox(randomBytes(32).toString('base64')).open(sealed)).toThrow();
    expect(() => new SecretBox(key).open('plain')).toThrow('not a sealed secret');
  });

  it('needs a 32-byte key', () => {
    expect(() => new SecretBox(randomBytes(16).toString('base64'))).toThrow('32 bytes');
  });
});
