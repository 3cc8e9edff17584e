import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { rsaThumbprint } from '@platform/auth';
import { EnvValidationError } from '@platform/runtime';

/** The key that signs new access tokens, and every key whose tokens are still accepted. */
export interface SigningKeys {
  kid: string;
  privateKey: KeyObject;
  /** Current key first, then retired ones: published at the JWKS endpoint. */
  publicKeys: KeyObject[];
}

export interface SigningKeySettings {
  JWT_PRIVATE_KEY?: string;
  JWT_PRIVATE_KEY_FILE?: string;
  JWT_PREVIOUS_PUBLIC_KEYS?: string;
  JWT_PREVIOUS_PUBLIC_KEYS_FILE?: string;
}

const PEM_BLOCK = /-----BEGIN [A-Z ]+-----[\s\S]+?-----END [A-Z ]+-----/g;
const MIN_RSA_BITS = 2048;

/**
 * Reads the key material once at boot. Rotation: generate a new key, move the old key's public half
 * to JWT_PREVIOUS_PUBLIC_KEYS, deploy; drop it once the longest access-token lifetime has passed.
 */
export function loadSigningKeys(settings: SigningKeySettings): SigningKeys {
  const privatePem = readSetting(settings, 'JWT_PRIVATE_KEY', true);
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(privatePem);
  } catch {
    throw invalid('JWT_PRIVATE_KEY must be an RSA private key in PEM format (PKCS#8 or PKCS#1)');
  }
  assertStrongRsa(
    privateKey,
    'JWT_PRIVATE_KEY must be an RSA private key in PEM format of at least 2048 bits',
  );

  const publicKeys = [createPublicKey(privateKey)];
  const previous = readSetting(settings, 'JWT_PREVIOUS_PUBLIC_KEYS', false);
  for (const block of previous.match(PEM_BLOCK) ?? []) {
    let key: KeyObject;
    try {
      key = createPublicKey(block);
    } catch {
      throw invalid('JWT_PREVIOUS_PUBLIC_KEYS must hold RSA public keys in PEM format');
    }
    assertStrongRsa(key, 'JWT_PREVIOUS_PUBLIC_KEYS must hold RSA public keys of at least 2048 bits');
    publicKeys.push(key);
  }
  if (previous.trim() !== '' && publicKeys.length === 1) {
    throw invalid('JWT_PREVIOUS_PUBLIC_KEYS must hold RSA public keys in PEM format');
  }
  return { kid: rsaThumbprint(publicKeys[0]), privateKey, publicKeys };
}

function readSetting(
  settings: SigningKeySettings,
  name: 'JWT_PRIVATE_KEY' | 'JWT_PREVIOUS_PUBLIC_KEYS',
  required: boolean,
): string {
  const inline = settings[name];
  const file = settings[`${name}_FILE`];
  if (inline && file) {
    throw invalid(`set ${name} or ${name}_FILE, not both`);
  }
  if (file) {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      throw invalid(`${name}_FILE must name a readable file`);
    }
  }
  if (inline) {
    // Orchestrators often pass multi-line PEM with literal "\n".
    return inline.replace(/\\n/g, '\n');
  }
  if (required) {
    throw invalid(
      `${name} (PEM) or ${name}_FILE (path to a PEM file) is required: the RSA key that signs access tokens`,
    );
  }
  return '';
}

function assertStrongRsa(key: KeyObject, message: string): void {
  if (key.asymmetricKeyType !== 'rsa' || (key.asymmetricKeyDetails?.modulusLength ?? 0) < MIN_RSA_BITS) {
    throw invalid(message);
  }
}

function invalid(problem: string): EnvValidationError {
  return new EnvValidationError([problem]);
}
