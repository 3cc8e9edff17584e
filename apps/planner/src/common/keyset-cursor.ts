const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The `next_cursor` of a list paged by keyset on (sort key, id): the page's last row's two values,
 * as opaque base64url JSON.
 */
export function keysetCursor(key: string, id: string): string {
  return Buffer.from(JSON.stringify([key, id])).toString('base64url');
}

/**
 * The sort key and id of a cursor `keysetCursor` made, if `cursor` is one whose key passes
 * `validKey` and whose id is a UUID; undefined otherwise (the caller answers its own 400).
 */
export function parseKeysetCursor(
  cursor: string,
  validKey: (key: string) => boolean = () => true,
): { key: string; id: string } | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  return Array.isArray(parsed) &&
    parsed.length === 2 &&
    typeof parsed[0] === 'string' &&
    validKey(parsed[0]) &&
    typeof parsed[1] === 'string' &&
    UUID.test(parsed[1])
    ? { key: parsed[0], id: parsed[1] }
    : undefined;
}
