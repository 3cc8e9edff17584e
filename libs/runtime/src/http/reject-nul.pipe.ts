import { Injectable, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';
import { RequestValidationError } from '../errors/request-validation.error';

/**
 * PostgreSQL text cannot hold U+0000: a string carrying it would fail in the database (a 500)
 * wherever it is stored or compared. Refused here, once for every body, query and path parameter,
 * as a 400 naming the field.
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
          message: `${field || metadata.type} must not contain the NUL character`,
        },
      ]);
    }
    return value;
  }
}

/** Where in `value` a string (or key) holds U+0000, as a dotted path; undefined when nowhere. */
export function findNul(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') {
    return value.includes('\u0000') ? path : undefined;
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
      const found = key.includes('\u0000') ? path : findNul(item, path ? `${path}.${key}` : key);
      if (found !== undefined) {
        return found;
      }
    }
  }
  return undefined;
}
