/** main-api answers `YYYY-MM-DD HH:mm:ss` in UTC; integrations answers ISO 8601 UTC (docs/spec/decisions.md §5). */
const MAIN_API_TIMESTAMP = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})$/;

/** `value` in ISO 8601 UTC when it is a main-api timestamp; anything else as it is. */
export function isoFromMainApi(value: string): string;
export function isoFromMainApi(value: unknown): unknown;
export function isoFromMainApi(value: unknown): unknown {
  const match = typeof value === 'string' ? MAIN_API_TIMESTAMP.exec(value) : null;
  return match ? `${match[1]}T${match[2]}.000Z` : value;
}
