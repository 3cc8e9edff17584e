/** main-api's timestamp format: `YYYY-MM-DD HH:mm:ss` in UTC (decisions §5). */
export function formatTimestamp(value: Date): string {
  return value.toISOString().slice(0, 19).replace('T', ' ');
}

export function formatNullableTimestamp(value: Date | null | undefined): string | null {
  return value ? formatTimestamp(value) : null;
}
