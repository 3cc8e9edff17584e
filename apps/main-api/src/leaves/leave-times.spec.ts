import { RequestValidationError } from '@platform/runtime';
import { leaveInstant } from './leave-times';

const at = (field: 'start' | 'end', value: string, zone = 'UTC', allDay = false) =>
  leaveInstant(field, value, { zone, allDay }).toISOString();

describe("a leave's start and end", () => {
  it('takes instants with Z or an offset as they are', () => {
    expect(at('start', '2027-01-18T13:00:00Z', 'America/New_York')).toBe('2027-01-18T13:00:00.000Z');
    expect(at('start', '2027-01-18T13:00+05:30')).toBe('2027-01-18T07:30:00.000Z');
    expect(at('start', '2027-01-18T13:00:15.250-04:00')).toBe('2027-01-18T17:00:15.250Z');
  });

  it("reads a local date-time in the person's zone, daylight saving included", () => {
    expect(at('start', '2027-01-18T13:00', 'America/New_York')).toBe('2027-01-18T18:00:00.000Z');
    expect(at('end', '2027-07-19T17:00:00', 'America/New_York')).toBe('2027-07-19T21:00:00.000Z');
    expect(at('start', '2027-07-19T09:00', 'Pacific/Auckland')).toBe('2027-07-18T21:00:00.000Z');
    // 02:30 does not exist on 2027-03-14 in New York: read with the offset before, it is 03:30 EDT.
    expect(at('start', '2027-03-14T02:30', 'America/New_York')).toBe('2027-03-14T07:30:00.000Z');
  });

  it('takes plain dates for all-day leaves only, as UTC dates, the end included', () => {
    expect(at('start', '2027-12-24', 'Pacific/Auckland', true)).toBe('2027-12-24T00:00:00.000Z');
    expect(at('end', '2027-12-26', 'Pacific/Auckland', true)).toBe('2027-12-26T23:59:59.000Z');
    expect(() => at('start', '2027-12-24')).toThrow(
      'start may be a plain date (YYYY-MM-DD) only with all_day: true',
    );
  });

  it.each(['2027-02-30', '2027-01-18T24:00', '2027-01-18T10:60', '2027-01-18T10:00+15:00', 'soon'])(
    'refuses %s with a 400 naming the field',
    (value) => {
      let thrown: unknown;
      try {
        at('end', value, 'UTC', true);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(RequestValidationError);
      expect((thrown as RequestValidationError).fieldErrors.map((error) => error.field)).toEqual(['end']);
    },
  );
});
