import { randomBytes, scryptSync } from 'node:crypto';
import {
  hashPassword,
  MAX_CONCURRENT_DERIVATIONS,
  MAX_WAIT_MS,
  MAX_WAITING_DERIVATIONS,
  PasswordHashingBusyError,
  verifyPassword,
  withDerivationSlot,
} from './password-hashing';

describe('password hashing', () => {
  // A cheap stored hash (N=2^10): these tests are about scheduling and formats, not scrypt's cost.
  const storedHashOf = (secret: string): string => {
    const salt = randomBytes(16);
    const key = scryptSync(secret, salt, 32, { N: 1024, r: 8, p: 1 });
    return ['scrypt', 1024, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
  };

  /** Work that runs until `finish()` is called, counting how many run at once. */
  function controllableWork() {
    let running = 0;
    let mostAtOnce = 0;
    const finishers: (() => void)[] = [];
    const work = () =>
      new Promise<string>((resolve) => {
        running += 1;
        mostAtOnce = Math.max(mostAtOnce, running);
        finishers.push(() => {
          running -= 1;
          resolve('derived');
        });
      });
    return {
      work,
      finishOne: () => finishers.shift()?.(),
      get running() {
        return running;
      },
      get mostAtOnce() {
        return mostAtOnce;
      },
    };
  }

  const settle = () => new Promise((resolve) => setImmediate(resolve));

  it('runs at most MAX_CONCURRENT_DERIVATIONS at once, in turn', async () => {
    const work = controllableWork();
    const results = Array.from({ length: 7 }, () => withDerivationSlot(work.work));

    for (let finished = 0; finished < 7; finished += 1) {
      await settle();
      expect(work.running).toBeLessThanOrEqual(MAX_CONCURRENT_DERIVATIONS);
      work.finishOne();
    }

    await expect(Promise.all(results)).resolves.toEqual(Array(7).fill('derived'));
    expect(work.mostAtOnce).toBe(MAX_CONCURRENT_DERIVATIONS);
  });

  it('answers 503 with Retry-After at once when the queue is full, never waiting without bound', async () => {
    const work = controllableWork();
    const admitted = Array.from({ length: MAX_CONCURRENT_DERIVATIONS + MAX_WAITING_DERIVATIONS }, () =>
      withDerivationSlot(work.work),
    );

    const refused = withDerivationSlot(work.work);

    await expect(refused).rejects.toBeInstanceOf(PasswordHashingBusyError);
    await expect(refused.catch((error: PasswordHashingBusyError) => error.getStatus())).resolves.toBe(503);
    await expect(
      refused.catch(
        (error: PasswordHashingBusyError) =>
          (error.getResponse() as { retryAfterSeconds: number }).retryAfterSeconds,
      ),
    ).resolves.toBe(1);
    for (let i = 0; i < admitted.length; i += 1) {
      await settle();
      work.finishOne();
    }
    await expect(Promise.all(admitted)).resolves.toHaveLength(admitted.length);
  });

  it('answers 503 to a caller that waited MAX_WAIT_MS for a slot, and frees its place', async () => {
    jest.useFakeTimers();
    try {
      const work = controllableWork();
      const running = Array.from({ length: MAX_CONCURRENT_DERIVATIONS }, () => withDerivationSlot(work.work));
      const waiting = withDerivationSlot(work.work);
      const outcome = waiting.then(
        () => 'ran',
        (error: unknown) => (error instanceof PasswordHashingBusyError ? 'busy' : 'other'),
      );

      jest.advanceTimersByTime(MAX_WAIT_MS + 1);

      await expect(outcome).resolves.toBe('busy');
      work.finishOne();
      work.finishOne();
      await Promise.all(running);
      // The slots are free again: the next caller runs at once.
      const next = withDerivationSlot(work.work);
      await Promise.resolve();
      await Promise.resolve();
      expect(work.running).toBe(1);
      work.finishOne();
      await expect(next).resolves.toBe('derived');
    } finally {
      jest.useRealTimers();
    }
  });

  it('checks hashes of older parameters and reports them outdated, so they are upgraded', async () => {
    const stored = storedHashOf('right secret');

    await expect(verifyPassword('right secret', stored)).resolves.toEqual({ matches: true, outdated: true });
    await expect(verifyPassword('wrong', stored)).resolves.toEqual({ matches: false, outdated: true });
    await expect(verifyPassword('right secret', 'not-a-hash')).resolves.toEqual({
      matches: false,
      outdated: false,
    });
  });

  it("hashes with today's parameters: 32 MiB scrypt, not outdated", async () => {
    const stored = await hashPassword('correct horse');

    expect(stored).toMatch(/^scrypt\$32768\$8\$3\$/);
    await expect(verifyPassword('correct horse', stored)).resolves.toEqual({
      matches: true,
      outdated: false,
    });
  });
});
