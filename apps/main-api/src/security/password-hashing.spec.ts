import { randomBytes, scryptSync } from 'node:crypto';
import {
  hashPassword,
  MAX_CONCURRENT_DERIVATIONS,
  MAX_PLACES_PER_SENDER,
  MAX_TRUSTED_WAIT_MS,
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

  /** Work that runs until `finish()` is called, counting how many run at once and in which order. */
  function controllableWork() {
    let running = 0;
    let mostAtOnce = 0;
    const started: string[] = [];
    const finishers: (() => void)[] = [];
    const labelled = (label: string) => () =>
      new Promise<string>((resolve) => {
        running += 1;
        mostAtOnce = Math.max(mostAtOnce, running);
        started.push(label);
        finishers.push(() => {
          running -= 1;
          resolve('derived');
        });
      });
    return {
      work: labelled('work'),
      labelled,
      started,
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

  /** Ends every derivation, including those that start meanwhile. */
  async function drain(work: ReturnType<typeof controllableWork>, results: Promise<unknown>[]) {
    const outcomes = Promise.allSettled(results);
    for (let i = 0; i < results.length; i += 1) {
      await settle();
      work.finishOne();
    }
    return outcomes;
  }

  it('gives a freed slot to a trusted waiter before every untrusted one waiting longer', async () => {
    const work = controllableWork();
    const results = [
      ...Array.from({ length: MAX_CONCURRENT_DERIVATIONS + 3 }, (_, i) =>
        withDerivationSlot(work.labelled(`untrusted ${i}`), { lane: 'untrusted', sender: `10.0.0.${i}` }),
      ),
      withDerivationSlot(work.labelled('trusted'), { lane: 'trusted', sender: '10.0.1.1' }),
    ];
    await settle();

    work.finishOne();
    await settle();

    expect(work.started.slice(MAX_CONCURRENT_DERIVATIONS)).toEqual(['trusted']);
    const outcomes = await drain(work, results);
    expect(outcomes.every(({ status }) => status === 'fulfilled')).toBe(true);
  });

  it('keeps room for trusted attempts while untrusted ones fill their lane', async () => {
    const work = controllableWork();
    const flood = Array.from({ length: MAX_CONCURRENT_DERIVATIONS + MAX_WAITING_DERIVATIONS }, (_, i) =>
      withDerivationSlot(work.work, { lane: 'untrusted', sender: `10.0.2.${i}` }),
    );

    const untrusted = withDerivationSlot(work.work, { lane: 'untrusted', sender: '10.0.3.1' });
    const trusted = withDerivationSlot(work.labelled('trusted'), { lane: 'trusted', sender: '10.0.3.1' });

    await expect(untrusted).rejects.toBeInstanceOf(PasswordHashingBusyError);
    await settle();
    work.finishOne();
    await settle();
    expect(work.started.at(-1)).toBe('trusted');
    const outcomes = await drain(work, [...flood, trusted]);
    expect(outcomes.filter(({ status }) => status === 'fulfilled')).toHaveLength(flood.length + 1);
  });

  it('lets one sender hold at most MAX_PLACES_PER_SENDER places of a lane; others still get in', async () => {
    const work = controllableWork();
    const results = Array.from({ length: MAX_PLACES_PER_SENDER + 5 }, () =>
      withDerivationSlot(work.work, { lane: 'untrusted', sender: '2001:db8:1:2::/64' }),
    );
    const other = withDerivationSlot(work.labelled('other'), { lane: 'untrusted', sender: '10.0.4.1' });

    const outcomes = await drain(work, [...results, other]);

    expect(outcomes.map(({ status }) => status)).toEqual([
      ...Array(MAX_PLACES_PER_SENDER).fill('fulfilled'),
      ...Array(5).fill('rejected'),
      'fulfilled',
    ]);
    expect(work.started).toContain('other');
    // The places are given back: the same sender is served again.
    const again = withDerivationSlot(work.work, { lane: 'untrusted', sender: '2001:db8:1:2::/64' });
    await settle();
    work.finishOne();
    await expect(again).resolves.toBe('derived');
  });

  it('refuses an untrusted waiter at MAX_WAIT_MS, giving its place back, while a trusted one waits up to MAX_TRUSTED_WAIT_MS', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate'] });
    try {
      const work = controllableWork();
      const running = Array.from({ length: MAX_CONCURRENT_DERIVATIONS }, (_, i) =>
        withDerivationSlot(work.work, { lane: 'untrusted', sender: `10.0.5.${i}` }),
      );
      const untrusted = Array.from({ length: MAX_PLACES_PER_SENDER }, () =>
        withDerivationSlot(work.work, { lane: 'untrusted', sender: '10.0.5.9' }).catch(
          (error: unknown) => error,
        ),
      );
      const trusted = withDerivationSlot(work.labelled('trusted'), { lane: 'trusted', sender: '10.0.5.8' });

      jest.advanceTimersByTime(MAX_WAIT_MS + 1);

      for (const outcome of await Promise.all(untrusted)) {
        expect(outcome).toBeInstanceOf(PasswordHashingBusyError);
      }
      jest.advanceTimersByTime(MAX_TRUSTED_WAIT_MS - MAX_WAIT_MS - 100);
      // The sender's places are free again: it may wait once more.
      const again = withDerivationSlot(work.work, { lane: 'untrusted', sender: '10.0.5.9' });
      work.finishOne();
      await settle();
      expect(work.started.at(-1)).toBe('trusted');
      await drain(work, [...running, trusted, again]);
      await expect(trusted).resolves.toBe('derived');
      await expect(again).resolves.toBe('derived');
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
