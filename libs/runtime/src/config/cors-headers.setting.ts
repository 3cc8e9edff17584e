import { Expose, Transform } from 'class-transformer';
import { ValidateBy } from 'class-validator';

const UNACCEPTED_MESSAGE =
  'must be a comma-separated list of request header names, such as traceparent,tracestate,' +
  "sentry-trace,baggage (letters, digits and !#$%&'*+-.^_`|~), or empty for none beyond the defaults";
const ANY_HEADER_MESSAGE =
  'must list the extra request headers one by one, never *: a page would then be allowed to send ' +
  'any header';

/** An HTTP field name (RFC 9110 §5.1: a token). */
const FIELD_NAME = /^[!#$%&'*+\-.^_`|~0-9a-z]+$/i;

/**
 * Reads a header-name list, lower-cased as browsers send `Access-Control-Request-Headers`; undefined
 * when an entry is not a field name (a browser would ask for a name no such entry could ever match).
 */
export function parseCorsHeaders(raw: string): string[] | undefined {
  if (raw.trim() === '') {
    return [];
  }
  const entries = raw.split(',').map((entry) => entry.trim().toLowerCase());
  return entries.every((entry) => FIELD_NAME.test(entry) && entry !== '*')
    ? [...new Set(entries)]
    : undefined;
}

function isHeaderList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((entry) => typeof entry === 'string');
}

/**
 * The request headers pages may send beyond the defaults (cors.ts), e.g. a tracing library's
 * `traceparent` or `sentry-trace`: read into a list (empty when unset). An unaccepted value stays a
 * string and fails with one message naming the variable; `*` gets its own message saying why.
 */
export function CorsHeadersSetting(name: string): PropertyDecorator {
  const decorators = [
    Expose(),
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' ? (parseCorsHeaders(value) ?? value) : value,
    ),
    ValidateBy(
      { name: 'isCorsHeaderList', validator: { validate: isHeaderList } },
      {
        message: ({ value }) =>
          `${name} ${typeof value === 'string' && value.split(',').some((entry) => entry.trim() === '*') ? ANY_HEADER_MESSAGE : UNACCEPTED_MESSAGE}`,
      },
    ),
  ];
  return (target, key) => {
    for (const decorator of decorators) {
      decorator(target, key);
    }
  };
}
