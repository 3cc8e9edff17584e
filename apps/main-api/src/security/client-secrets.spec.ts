import { randomBytes, scryptSync } from 'node:crypto';
import { hashClientSecret, newClientSecret, verifyClientSecret } from './client-secrets';

describe('API client secrets', () => {
  it('are 256 random bits, stored as SHA-256 and checked without a slow hash', async () => {
    const secret = newClientSecret();
    const stored = hashClientSecret(secret);

    expect(Buffer.from(secret, 'base64url')).toHaveLength(32);
    expect(stored).toMatch(/^sha256\$[0-9a-f]{64}$/);
    expect(stored).not.toContain(secret);
    await expect(verifyClientSecret(secret, stored)).resolves.toEqual({ matches: true, outdated: false });
    await expect(verifyClientSecret(`${secret}x`, stored)).resolves.toEqual({
      matches: false,
      outdated: false,
    });
  });

  it('still accept a secret stored as scrypt before, reporting it outdated so it is upgraded', async () => {
    const secret = newClientSecret();
    const salt = randomBytes(16);
    const key = scryptSync(secret, salt, 32, { N: 1024, r: 8, p: 1 });
    const legacy = ['scrypt', 1024, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');

    await expect(verifyClientSecret(secret, legacy)).resolves.toEqual({ matches: true, outdated: true });
    await expect(verifyClientSecret('wrong', legacy)).resolves.toMatchObject({ matches: false });
  });
});
