import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { HttpException, HttpStatus } from '@nestjs/common';

// scrypt at one of OWASP's equivalent settings (N=2^15, r=8, p=3): the same work as N=2^17, p=1 but
// 32 MiB per derivation instead of 128 MiB, which kept main-api's resident memory near 500 MiB after
// a burst of logins. Built into Node, so nothing native needs compiling.
const PARAMETERS = { N: 2 ** 15, r: 8, p: 3 } as const;
const KEY_LENGTH = 32;
const MAX_MEMORY = 256 * 1024 * 1024;

/** Derivations run at once: two keep both cores busy; more only queue inside libuv. */
export const MAX_CONCURRENT_DERIVATIONS = 2;
/** Derivations that may wait for a slot; one more is answered 503 at once. */
export const MAX_WAITING_DERIVATIONS = 16;
/** How long a derivation may wait for a slot before it is answered 503. */
export const MAX_WAIT_MS = 2_000;

/**
 * Every slot taken and the queue full (or the wait too long): the caller should retry in a moment.
 * A 503 with Retry-After, so a flood of logins delays nobody by more than MAX_WAIT_MS.
 */
export class PasswordHashingBusyError extends HttpException {
  constructor() {
    super(
      { message: 'Too many sign-ins are being checked right now; retry shortly', retryAfterSeconds: 1 },
      HttpStatus.SERVICE_UNAVAILABLE,
    );
  }
}

interface Waiter {
  start: () => void;
  timer: NodeJS.Timeout;
}

let derivationsRunning = 0;
const waiting: Waiter[] = [];

/** Runs `work` in one of MAX_CONCURRENT_DERIVATIONS slots, or refuses with PasswordHashingBusyError. */
export async function withDerivationSlot<T>(work: () => Promise<T>): Promise<T> {
  if (derivationsRunning < MAX_CONCURRENT_DERIVATIONS) {
    derivationsRunning += 1;
  } else {
    if (waiting.length >= MAX_WAITING_DERIVATIONS) {
      throw new PasswordHashingBusyError();
    }
    // Woken by a finishing derivation, which hands its slot over, or refused at the deadline.
    await new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        start: () => {
          clearTimeout(waiter.timer);
          resolve();
        },
        timer: setTimeout(() => {
          waiting.splice(waiting.indexOf(waiter), 1);
          reject(new PasswordHashingBusyError());
        }, MAX_WAIT_MS),
      };
      waiter.timer.unref();
      waiting.push(waiter);
    });
  }
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) {
      next.start();
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

/** `scrypt$N$r$p$salt$hash` (base64url), so parameters can change without breaking old hashes. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMETERS);
  return [
    'scrypt',
    PARAMETERS.N,
    PARAMETERS.r,
    PARAMETERS.p,
    salt.toString('base64url'),
    key.toString('base64url'),
  ].join('$');
}

export interface PasswordCheck {
  matches: boolean;
  /** The stored hash uses other parameters than today's: store `hashPassword()` of it again. */
  outdated: boolean;
}

export async function verifyPassword(password: string, stored: string): Promise<PasswordCheck> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) {
    return { matches: false, outdated: false };
  }
  const expected = Buffer.from(hash, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return {
    matches: expected.length === actual.length && timingSafeEqual(expected, actual),
    outdated: Number(n) !== PARAMETERS.N || Number(r) !== PARAMETERS.r || Number(p) !== PARAMETERS.p,
  };
}

/** A random URL-safe token, e.g. a client secret or a generated password. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
