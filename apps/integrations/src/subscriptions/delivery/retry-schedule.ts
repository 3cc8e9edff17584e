/** How far a pause may stray from the schedule, either way, so receivers are not hit in waves. */
const JITTER = 0.2;

/**
 * The pause before the next attempt after `failedAttempts` failures in a row (1 after the first),
 * the schedule's entry ±20 %; undefined once the schedule is used up: the delivery has failed.
 */
export function retryDelayMs(
  schedule: readonly number[],
  failedAttempts: number,
  random: () => number = Math.random,
): number | undefined {
  const planned = schedule[failedAttempts - 1];
  if (planned === undefined) {
    return undefined;
  }
  return Math.round(planned * (1 - JITTER + 2 * JITTER * random()));
}
