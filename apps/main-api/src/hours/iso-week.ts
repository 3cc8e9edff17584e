import { RequestValidationError } from '@platform/runtime';

/** `2026-W48`: an ISO 8601 week (Monday to Sunday; week 1 holds the year's first Thursday). */
export const ISO_WEEK_PATTERN = /^(\d{4})-W(\d{2})$/;

export interface IsoWeek {
  /** As given, e.g. `2026-W48`. */
  name: string;
  /** Its Monday and Sunday, `YYYY-MM-DD`. */
  from: string;
  to: string;
}

const DAY_MS = 86_400_000;

/** The week's days; a malformed week, or week 53 of a 52-week year, is a 400 naming `iso_week`. */
export function isoWeekOf(name: string): IsoWeek {
  const match = ISO_WEEK_PATTERN.exec(name);
  const year = Number(match?.[1]);
  const week = Number(match?.[2]);
  if (match && week >= 1 && week <= 53) {
    const fourthOfJanuary = Date.UTC(year, 0, 4);
    const weekday = (new Date(fourthOfJanuary).getUTCDay() + 6) % 7; // Monday 0
    const monday = fourthOfJanuary - weekday * DAY_MS + (week - 1) * 7 * DAY_MS;
    // Its Thursday is in `year` exactly when the week is one of that year's.
    if (new Date(monday + 3 * DAY_MS).getUTCFullYear() === year) {
      return { name, from: dayOf(monday), to: dayOf(monday + 6 * DAY_MS) };
    }
  }
  throw new RequestValidationError([
    {
      field: 'iso_week',
      validation: 'isIsoWeek',
      message: 'iso_week must be an ISO week of its year, YYYY-Www (e.g. 2026-W48)',
    },
  ]);
}

function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
