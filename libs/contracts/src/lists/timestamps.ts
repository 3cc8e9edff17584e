/** main-api's timestamp format: `YYYY-MM-DD HH:mm:ss` in UTC (docs/spec/decisions.md §5). */
export function formatTimestamp(value: Date): string {
  return value.toISOString().slice(0, 19).replace('T', ' ');
}

export function formatNullableTimestamp(value: Date | null | undefined): string | null {
  return value ? formatTimestamp(value) : null;
}

/** True for a real `YYYY-MM-DD` calendar day (2026-02-30 is not, although `new Date` rolls it over). */
export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) {
    return false;
  }
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** The pattern of `formatTimestamp`, for the OpenAPI documents. */
export const TIMESTAMP_PATTERN = '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$';

/** `@ApiProperty` keywords of a main-api timestamp, a calendar day and an ISO 8601 UTC instant. */
export const API_TIMESTAMP = { pattern: TIMESTAMP_PATTERN } as const;
export const API_DATE = { format: 'date' } as const;
export const API_DATE_TIME = { format: 'date-time' } as const;
export const API_EMAIL = { format: 'email' } as const;
