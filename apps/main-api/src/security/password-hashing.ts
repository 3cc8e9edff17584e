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
/** Derivations that may wait for a slot in each lane; one more is answered 503 at once. */
export const MAX_WAITING_DERIVATIONS = 16;
/**
 * Places (running or waiting) one sender may hold in a lane: its share, as many as there are slots.
 * One address then never fills a lane, and an attempt from elsewhere waits for at most one of its
 * derivations.
 */
export const MAX_PLACES_PER_SENDER = MAX_CONCURRENT_DERIVATIONS;
/** How long an untrusted derivation may wait for a slot before it is answered 503. */
export const MAX_WAIT_MS = 2_000;
/**
 * How long a trusted one may wait: it is served first, so it waits for a running derivation only,
 * but on a loaded machine that can take longer than MAX_WAIT_MS, and its owner would rather wait.
 */
export const MAX_TRUSTED_WAIT_MS = 10_000;

/**
 * Every slot taken and the lane full, the sender holding its share already, or the wait too long:
 * the caller should retry in a moment. A 503 with Retry-After, so a flood of logins delays no
 * untrusted attempt by more than MAX_WAIT_MS.
 */
export class PasswordHashingBusyError extends HttpException {
  constructor() {
    super(
      { message: 'Too many sign-ins are being checked right now; retry shortly', retryAfterSeconds: 1 },
      HttpStatus.SERVICE_UNAVAILABLE,
    );
  }
}

/**
 * `trusted`: a sign-in from a device its account signed in from before (a valid device cookie), and
 * storing a password; served before `untrusted`, which is every other check.
 */
export type DerivationLane = 'trusted' | 'untrusted';

/** Where a derivation waits, and for whom. */
export interface DerivationTicket {
  lane: DerivationLane;
  /** Who asks (an address, IPv6 per /64): it holds at most MAX_PLACES_PER_SENDER places of its lane. */
  sender?: string;
}

const UNTRUSTED: DerivationTicket = { lane: 'untrusted' };
const TRUSTED: DerivationTicket = { lane: 'trusted' };

interface Waiter {
  start: () => void;
  timer: NodeJS.Timeout;
}

/** One queue of waiters with its own room, and the places each sender holds in it. */
class Lane {
  readonly waiting: Waiter[] = [];
  private readonly held = new Map<string, number>();

  constructor(readonly maxWaitMs: number) {}

  isShareTaken(sender: string | undefined): boolean {
    return sender !== undefined && (this.held.get(sender) ?? 0) >= MAX_PLACES_PER_SENDER;
  }

  hold(sender: string | undefined): void {
    if (sender !== undefined) {
      this.held.set(sender, (this.held.get(sender) ?? 0) + 1);
    }
  }

  release(sender: string | undefined): void {
    if (sender === undefined) {
      return;
    }
    const places = (this.held.get(sender) ?? 1) - 1;
    if (places > 0) {
      this.held.set(sender, places);
    } else {
      this.held.delete(sender);
    }
  }
}

let derivationsRunning = 0;
const lanes: Record<DerivationLane, Lane> = {
  trusted: new Lane(MAX_TRUSTED_WAIT_MS),
  untrusted: new Lane(MAX_WAIT_MS),
};

/**
 * Runs `work` in one of MAX_CONCURRENT_DERIVATIONS slots, or refuses with PasswordHashingBusyError.
 * A freed slot goes to the first trusted waiter, else to the first untrusted one; each lane has its
 * own MAX_WAITING_DERIVATIONS places, so a flood of untrusted attempts never keeps a trusted one out
 * for longer than the derivations already running.
 */
export async function withDerivationSlot<T>(
  work: () => Promise<T>,
  ticket: DerivationTicket = UNTRUSTED,
): Promise<T> {
  const lane = lanes[ticket.lane];
  if (lane.isShareTaken(ticket.sender)) {
    throw new PasswordHashingBusyError();
  }
  if (derivationsRunning < MAX_CONCURRENT_DERIVATIONS) {
    derivationsRunning += 1;
    lane.hold(ticket.sender);
  } else {
    if (lane.waiting.length >= MAX_WAITING_DERIVATIONS) {
      throw new PasswordHashingBusyError();
    }
    lane.hold(ticket.sender);
    // Woken by a finishing derivation, which hands its slot over, or refused at the deadline.
    await new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        start: () => {
          clearTimeout(waiter.timer);
          resolve();
        },
        timer: setTimeout(() => {
          lane.waiting.splice(lane.waiting.indexOf(waiter), 1);
          lane.release(ticket.sender);
          reject(new PasswordHashingBusyError());
        }, lane.maxWaitMs),
      };
      waiter.timer.unref();
      lane.waiting.push(waiter);
    });
  }
  try {
    return await work();
  } finally {
    lane.release(ticket.sender);
    const next = lanes.trusted.waiting.shift() ?? lanes.untrusted.waiting.shift();
    if (next) {
      next.start();
    } else {
      derivationsRunning -= 1;
    }
  }
}

function derive(
  secret: string,
  salt: Buffer,
  options: ScryptOptions,
  ticket: DerivationTicket,
): Promise<Buffer> {
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
    ticket,
  );
}

/**
 * `scrypt$N$r$p$salt$hash` (base64url), so parameters can change without breaking old hashes.
 * In the trusted lane: a password is stored by an authenticated caller or after a successful sign-in.
 */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMETERS, TRUSTED);
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

/** Checks `password` in the lane and share of `ticket` (untrusted, nobody's share, by default). */
export async function verifyPassword(
  password: string,
  stored: string,
  ticket: DerivationTicket = UNTRUSTED,
): Promise<PasswordCheck> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) {
    return { matches: false, outdated: false };
  }
  const expected = Buffer.from(hash, 'base64url');
  const actual = await derive(
    password,
    Buffer.from(salt, 'base64url'),
    { N: Number(n), r: Number(r), p: Number(p) },
    ticket,
  );
  return {
    matches: expected.length === actual.length && timingSafeEqual(expected, actual),
    outdated: Number(n) !== PARAMETERS.N || Number(r) !== PARAMETERS.r || Number(p) !== PARAMETERS.p,
  };
}

/** A random URL-safe token, e.g. a client secret or a generated password. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
