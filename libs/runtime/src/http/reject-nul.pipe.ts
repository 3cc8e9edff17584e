import { Injectable, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';
import { RequestValidationError } from '../errors/request-validation.error';

/**
 * PostgreSQL text cannot hold U+0000: a string carrying it would fail in the database (a 500)
 * wherever it is stored or compared. An unpaired UTF-16 surrogate (`"\ud800"` in JSON) is no text
 * either: the driver would store U+FFFD in its place, and validator.js's `isEmail` throws on it (a
 * 500, issue 20). Both are refused here, once for every body, query and path parameter, as a 400
 * naming the field.
 */
@Injectable()
export class RejectNulCharactersPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type === 'custom') {
      return value;
    }
    const field = findNul(value, metadata.data ?? '');
    if (field !== undefined) {
      throw new RequestValidationError([
        {
          field: field || metadata.type,
          validation: 'noNulCharacter',
          message: `${field || metadata.type} must not contain the NUL character or an unpaired surrogate`,
        },
      ]);
    }
    return value;
  }
}

/**
 * Where in `value` a string (or key) holds U+0000 or an unpaired surrogate, as a dotted path;
 * undefined when nowhere.
 */
export function findNul(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') {
    return isStorableText(value) ? undefined : path;
  }
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = findNul(item, `${path}.${index}`.replace(/^\./, ''));
      if (found !== undefined) {
        return found;
      }
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const found = isStorableText(key) ? findNul(item, path ? `${path}.${key}` : key) : path;
      if (found !== undefined) {
        return found;
      }
    }
  }
  return undefined;
}

/** With the `u` flag a surrogate pair is one code point, so `\p{Cs}` matches only unpaired halves. */
// eslint-disable-next-line no-control-regex -- U+0000 is exactly what this looks for.
const UNSTORABLE = /[\u0000\p{Cs}]/u;

function isStorableText(text: string): boolean {
  return !UNSTORABLE.test(text);
}
