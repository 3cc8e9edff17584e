/**
 * Wall clocks of IANA time zones, read from the runtime's time zone data (Intl), never from the
 * process's own zone. One implementation for the services: the planner's capacity reads partial
 * leaves in a person's zone with it, and main-api turns a leave's local date-times into instants.
 * Days are day numbers: days since 1970-01-01 (UTC), as the planner's calendar counts them.
 */
const MS_PER_DAY = 86_400_000;
const formats = new Map<string, Intl.DateTimeFormat>();

/** Whether `zone` is an IANA time zone this runtime knows (`Europe/Paris`, `UTC`). */
export function isTimeZone(zone: string): boolean {
  try {
    formatOf(zone);
    return true;
  } catch {
    return false;
  }
}

/**
 * How far `zone`'s wall clock is ahead of UTC at `instant`, in milliseconds (negative west of UTC),
 * daylight saving time included.
 */
export function offsetMs(zone: string, instant: number): number {
  if (zone === 'UTC') {
    return 0;
  }
  const parts = Object.fromEntries(
    formatOf(zone)
      .formatToParts(new Date(instant))
      .map((part) => [part.type, part.value]),
  );
  const wall = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return wall - Math.floor(instant / 1000) * 1000;
}

/** The day (days since 1970-01-01) `instant` falls on in `zone`. */
export function localDayOf(zone: string, instant: number): number {
  return Math.floor((instant + offsetMs(zone, instant)) / MS_PER_DAY);
}

/**
 * The instant `zone`'s wall clock shows `time` (`HH:mm[:ss]`) on `day` (days since 1970-01-01). A
 * wall time a daylight saving change skips (02:30 on a spring-forward night) is read with the offset
 * before the change, so it lands that much after it (03:30); one it repeats (autumn) is its first
 * occurrence.
 */
export function zonedInstant(zone: string, day: number, time: string): number {
  const [hours = 0, minutes = 0, seconds = 0] = time.split(':').map(Number);
  const wall = day * MS_PER_DAY + ((hours * 60 + minutes) * 60 + seconds) * 1000;
  const before = wall - offsetMs(zone, wall - MS_PER_DAY);
  const after = wall - offsetMs(zone, wall + MS_PER_DAY);
  const shows = (instant: number) => instant + offsetMs(zone, instant) === wall;
  if (shows(before)) {
    return shows(after) ? Math.min(before, after) : before;
  }
  return shows(after) ? after : before;
}

function formatOf(zone: string): Intl.DateTimeFormat {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(zone, format);
  }
  return format;
}
