import { retryDelayMs } from './retry-schedule';

describe('retryDelayMs', () => {
  const schedule = [5000, 300_000, 1_800_000];

  it('follows the schedule, one entry per failure in a row', () => {
    expect(retryDelayMs(schedule, 1, () => 0.5)).toBe(5000);
    expect(retryDelayMs(schedule, 2, () => 0.5)).toBe(300_000);
    expect(retryDelayMs(schedule, 3, () => 0.5)).toBe(1_800_000);
  });

  it('strays at most 20 % either way', () => {
    expect(retryDelayMs(schedule, 2, () => 0)).toBe(240_000);
    expect(retryDelayMs(schedule, 2, () => 0.999999)).toBeCloseTo(360_000, -1);
  });

  it('gives up once the schedule is used up', () => {
    expect(retryDelayMs(schedule, 4)).toBeUndefined();
  });
});
