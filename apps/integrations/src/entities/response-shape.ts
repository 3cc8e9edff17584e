import type { Type } from '@nestjs/common';
import { DECORATORS } from '@nestjs/swagger';
import { isoFromMainApi } from '../main-api/main-api-timestamp';

/** What `@ApiProperty` recorded about one field (the parts this file reads). */
interface DocumentedField {
  name: string;
  /** A response DTO class: the field is an object (or a list of objects) shaped by it. */
  nested?: Type;
  dateTime: boolean;
}

const fieldsByType = new WeakMap<Type, readonly DocumentedField[]>();

/** Constructors `@ApiProperty` records for plain values (`type: String`, design types). */
const PLAIN_CONSTRUCTORS: readonly unknown[] = [String, Number, Boolean, Object, Array, Date];

/**
 * The fields of a response DTO, from its `@ApiProperty` metadata: the OpenAPI document and the
 * answer are built from the same declaration, so they cannot disagree.
 */
function documentedFields(type: Type): readonly DocumentedField[] {
  const known = fieldsByType.get(type);
  if (known) {
    return known;
  }
  const prototype = type.prototype as object;
  const keys = (Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES_ARRAY, prototype) ?? []) as string[];
  if (keys.length === 0) {
    throw new Error(`${type.name} documents no field with @ApiProperty: it cannot shape an answer`);
  }
  const fields = keys.map((key): DocumentedField => {
    const name = key.slice(1);
    const property = Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES, prototype, name) as {
      type?: unknown;
      format?: string;
    };
    // `type: () => Dto` (a lazy type, for DTOs that refer to each other) is an arrow function: no prototype.
    const declared =
      typeof property.type === 'function' && property.type.prototype === undefined
        ? (property.type as () => unknown)()
        : property.type;
    if (typeof declared === 'function' && !PLAIN_CONSTRUCTORS.includes(declared)) {
      if (!Reflect.hasMetadata(DECORATORS.API_MODEL_PROPERTIES_ARRAY, declared.prototype as object)) {
        // Its value would leave unshaped: refuse it at the first answer rather than leak.
        throw new Error(`${type.name}.${name}: ${declared.name} is not a response DTO (no @ApiProperty)`);
      }
      return { name, nested: declared as Type, dateTime: false };
    }
    return { name, dateTime: property.format === 'date-time' };
  });
  fieldsByType.set(type, fields);
  return fields;
}

/**
 * `value` as the response DTO `type` documents it: only its documented fields, at every level (a
 * field main-api adds later does not leave this service undocumented), and every field documented
 * as `format: 'date-time'` in ISO 8601 UTC. A list is shaped item by item; a field the value lacks
 * stays absent rather than being made up.
 */
export function shapeAs(type: Type, value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map((item) => shapeAs(type, item));
  }
  if (value === null || typeof value !== 'object') {
    return value;
  }
  const source = value as Record<string, unknown>;
  const shaped: Record<string, unknown> = {};
  for (const field of documentedFields(type)) {
    if (!Object.hasOwn(source, field.name)) {
      continue;
    }
    const inner = source[field.name];
    shaped[field.name] = field.nested
      ? shapeAs(field.nested, inner)
      : field.dateTime
        ? isoFromMainApi(inner)
        : inner;
  }
  return shaped;
}
