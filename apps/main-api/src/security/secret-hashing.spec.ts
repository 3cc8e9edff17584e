import { randomBytes, scryptSync } from 'node:crypto';
import { MAX_CONCURRENT_DERIVATIONS, verifySecret, withDerivationSlot } from './secret-hashing';

describe('secret hashing', () => {
  // A cheap stored hash (N=2^10): these tests are about scheduling, not about scrypt's cost.
  const storedHashOf = (secret: string): string => {
    const salt = randomBytes(16);
    const key = scryptSync(secret, salt, 32, { N: 1024, r: 8, p: 1 });
    return ['scrypt', 1024, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
  };

  it('runs at most MAX_CONCURRENT_DERIVATIONS at once, in turn, and frees the slot of a failure', async () => {
    let running = 0;
    let mostAtOnce = 0;
    const finishers: (() => void)[] = [];
    const work = (fail: boolean) => () =>
      new Promise<string>((resolve, reject) => {
        running += 1;
        mostAtOnce = Math.max(mostAtOnce, running);
        finishers.push(() => {
          running -= 1;
          if (fail) {
            reject(new Error('derivation failed'));
          } else {
            resolve('derived');
          }
        });
      });
    const results = Array.from({ length: 7 }, (_, i) =>
      withDerivationSlot(work(i % 2 === 0)).catch((error: Error) => error.message),
    );

    // Finish whatever is running, one at a time, until every caller has its answer.
    for (let finished = 0; finished < 7; finished += 1) {
      await new Promise((resolve) => setImmediate(resolve));
      expect(running).toBeLessThanOrEqual(MAX_CONCURRENT_DERIVATIONS);
      finishers.shift()?.();
    }

    await expect(Promise.all(results)).resolves.toEqual([
      'derivation failed',
      'derived',
      'derivation failed',
      'derived',
      'derivation failed',
      'derived',
      'derivation failed',
    ]);
    expect(mostAtOnce).toBe(MAX_CONCURRENT_DERIVATIONS);
    expect(running).toBe(0);
  });

  it('answers every concurrent caller of verifySecret', async () => {
    const stored = storedHashOf('right secret');

    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => verifySecret(i % 3 === 0 ? 'wrong' : 'right secret', stored)),
    );

    expect(answers).toEqual([false, true, true, false, true, true]);
  });
});
