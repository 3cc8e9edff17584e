import { Expose, Transform } from 'class-transformer';
import { ValidateBy } from 'class-validator';

const UNACCEPTED_MESSAGE =
  'must be a comma-separated list of exact origins as a browser sends them, such as ' +
  'https://app.example.com,http://localhost:5173 (http or https, lower-case host, optional port; ' +
  'no path, no trailing slash), or empty for no CORS';
const ANY_ORIGIN_MESSAGE =
  'must list the allowed origins one by one, never * or null (what sandboxed frames send): only the ' +
  "platform's own web apps should call it from a browser";

/**
 * Reads an origin list; undefined when any entry is not an origin exactly as the `Origin` header
 * carries it. The header is compared as a string, so an entry a browser would never send (a path, a
 * trailing slash, upper case, a default port) would silently allow nothing: it is refused instead.
 */
export function parseCorsOrigins(raw: string): string[] | undefined {
  if (raw.trim() === '') {
    return [];
  }
  const entries = raw.split(',').map((entry) => entry.trim());
  return entries.every(isSerializedOrigin) ? entries : undefined;
}

/** A `*` (alone or as a wildcard host), or `null` (any page can send it from a sandboxed frame). */
export function allowsAnyOrigin(raw: string): boolean {
  return raw
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .some((entry) => entry.includes('*') || entry === 'null');
}

function isSerializedOrigin(entry: string): boolean {
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    return false;
  }
  return (
    (url.protocol === 'https:' || url.protocol === 'http:') &&
    url.origin === entry &&
    // The URL parser keeps characters such as `*` in a host; no browser sends such an origin.
    /^([a-z0-9_.-]+|\[[0-9a-f:.]+\])$/.test(url.hostname)
  );
}

function isOriginList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((entry) => typeof entry === 'string');
}

/**
 * An allowed-origins variable, read into a list (empty when unset). An unaccepted value stays a
 * string and fails with one message naming the variable; `*` gets its own message saying why.
 */
export function CorsOriginsSetting(name: string): PropertyDecorator {
  const decorators = [
    Expose(),
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' ? (parseCorsOrigins(value) ?? value) : value,
    ),
    ValidateBy(
      { name: 'isCorsOriginList', validator: { validate: isOriginList } },
      {
        message: ({ value }) =>
          `${name} ${typeof value === 'string' && allowsAnyOrigin(value) ? ANY_ORIGIN_MESSAGE : UNACCEPTED_MESSAGE}`,
      },
    ),
  ];
  return (target, key) => {
    for (const decorator of decorators) {
      decorator(target, key);
    }
  };
}
