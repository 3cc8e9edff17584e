import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

// scrypt with OWASP's minimum cost (N=2^17, r=8, p=1): slow enough to make a stolen table expensive
// to crack, built into Node so nothing native needs compiling.
const PARAMETERS = { N: 2 ** 17, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
const MAX_MEMORY = 256 * 1024 * 1024;

// Each derivation holds 128 × N × r bytes (128 MiB) while it runs, and libuv runs four at once: a
// burst of token requests took main-api to 666 MiB resident (npm run bench), past its 512 MiB
// container limit. Two at a time keep the peak near 256 MiB above the service and still keep two
// cores busy; further requests wait their turn (the token endpoint is rate limited anyway).
export const MAX_CONCURRENT_DERIVATIONS = 2;
let derivationsRunning = 0;
const waitingForDerivation: (() => void)[] = [];

export async function withDerivationSlot<T>(work: () => Promise<T>): Promise<T> {
  if (derivationsRunning < MAX_CONCURRENT_DERIVATIONS) {
    derivationsRunning += 1;
  } else {
    // Woken by a finishing derivation, which hands its slot over.
    await new Promise<void>((resolve) => waitingForDerivation.push(resolve));
  }
  try {
    return await work();
  } finally {
    const next = waitingForDerivation.shift();
    if (next) {
      next();
    } else {
      derivationsRunning -= 1;
    }
  }
}

function derive(secret: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return withDerivationSlot(
    () =>
      new Promise<Buffer>((resolve, reject) =>
        scrypt(
          secret.normalize('NFKC'),
          salt,
          KEY_LENGTH,
          { ...options, maxmem: MAX_MEMORY },
          (error, key) => (error ? reject(error) : resolve(key)),
        ),
      ),
  );
}

/** `scrypt$N$r$p$salt$hash` (base64url), so parameters can be raised later without breaking old hashes. */
export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(secret, salt, PARAMETERS);
  return [
    'scrypt',
    PARAMETERS.N,
    PARAMETERS.r,
    PARAMETERS.p,
    salt.toString('base64url'),
    key.toString('base64url'),
  ].join('$');
}

export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) {
    return false;
  }
  const expected = Buffer.from(hash, 'base64url');
  const actual = await derive(secret, Buffer.from(salt, 'base64url'), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** A random URL-safe token, e.g. a client secret or generated password. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
