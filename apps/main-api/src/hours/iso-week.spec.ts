import { RequestValidationError } from '@platform/runtime';
import { isoWeekOf } from './iso-week';

describe('isoWeekOf', () => {
  it.each([
    ['2026-W48', '2026-11-23', '2026-11-29'],
    ['2026-W01', '2025-12-29', '2026-01-04'],
    ['2020-W53', '2020-12-28', '2021-01-03'],
    ['2027-W52', '2027-12-27', '2028-01-02'],
  ])('%s runs from %s to %s', (name, from, to) => {
    expect(isoWeekOf(name)).toEqual({ name, from, to });
  });

  it.each(['2025-W53', '2026-W00', '2026-W54', '2026-48', '26-W01', '2026-W1'])('refuses %s', (name) => {
    expect(() => isoWeekOf(name)).toThrow(RequestValidationError);
  });
});
