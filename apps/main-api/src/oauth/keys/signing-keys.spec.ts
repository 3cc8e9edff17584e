import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rsaThumbprint } from '@platform/auth';
import { EnvValidationError } from '@platform/runtime';
import { loadSigningKeys } from './signing-keys';

const pem = (bits = 2048) => generateKeyPairSync('rsa', { modulusLength: bits });
const current = pem();
const retired = pem();
const currentPrivatePem = current.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
const retiredPublicPem = retired.publicKey.export({ type: 'spki', format: 'pem' }) as string;

describe('loadSigningKeys', () => {
  it('signs with the private key and publishes it first, with a thumbprint kid', () => {
    const keys = loadSigningKeys({ JWT_PRIVATE_KEY: currentPrivatePem });

    expect(keys.kid).toBe(rsaThumbprint(current.publicKey));
    expect(keys.publicKeys).toHaveLength(1);
    expect(keys.publicKeys[0].equals(current.publicKey)).toBe(true);
  });

  it('keeps retired public keys for verification during a rotation', () => {
    const keys = loadSigningKeys({
      JWT_PRIVATE_KEY: currentPrivatePem,
      JWT_PREVIOUS_PUBLIC_KEYS: retiredPublicPem,
    });

    expect(keys.publicKeys.map((key) => rsaThumbprint(key))).toEqual([
      rsaThumbprint(current.publicKey),
      rsaThumbprint(retired.publicKey),
    ]);
  });

  it('reads keys from files, and PEM with escaped newlines from env', () => {
    const directory = mkdtempSync(join(tmpdir(), 'keys-'));
    writeFileSync(join(directory, 'private.pem'), currentPrivatePem);

    expect(loadSigningKeys({ JWT_PRIVATE_KEY_FILE: join(directory, 'private.pem') }).kid).toBe(
      rsaThumbprint(current.publicKey),
    );
    expect(loadSigningKeys({ JWT_PRIVATE_KEY: currentPrivatePem.replace(/\n/g, '\\n') }).kid).toBe(
      rsaThumbprint(current.publicKey),
    );
  });

  it.each([
    [{}, 'JWT_PRIVATE_KEY (PEM) or JWT_PRIVATE_KEY_FILE (path to a PEM file) is required'],
    [{ JWT_PRIVATE_KEY: 'not a key' }, 'JWT_PRIVATE_KEY must be an RSA private key in PEM format'],
    [
      { JWT_PRIVATE_KEY: currentPrivatePem, JWT_PRIVATE_KEY_FILE: '/x' },
      'set JWT_PRIVATE_KEY or JWT_PRIVATE_KEY_FILE, not both',
    ],
    [{ JWT_PRIVATE_KEY_FILE: '/nonexistent/key.pem' }, 'JWT_PRIVATE_KEY_FILE must name a readable file'],
    [
      { JWT_PRIVATE_KEY: currentPrivatePem, JWT_PREVIOUS_PUBLIC_KEYS: 'garbage' },
      'JWT_PREVIOUS_PUBLIC_KEYS must hold RSA public keys',
    ],
  ])('refuses %p with a message naming the variable', (settings, message) => {
    expect(() => loadSigningKeys(settings)).toThrow(EnvValidationError);
    expect(() => loadSigningKeys(settings)).toThrow(message);
  });

  it('refuses weak and non-RSA keys', () => {
    const weak = pem(1024).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({
      type: 'pkcs8',
      format: 'pem',
    }) as string;

    expect(() => loadSigningKeys({ JWT_PRIVATE_KEY: weak })).toThrow('at least 2048 bits');
    expect(() => loadSigningKeys({ JWT_PRIVATE_KEY: ec })).toThrow('at least 2048 bits');
  });
});
