import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

/** Where @nestjs/swagger keeps each `@ApiProperty` (its `DECORATORS` constants). */
const API_MODEL_PROPERTIES = 'swagger/apiModelProperties';
const API_MODEL_PROPERTIES_ARRAY = 'swagger/apiModelPropertiesArray';

type PropertyDocs = Record<string, unknown>;

const isSchema = (value: unknown): value is PropertyDocs =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * What a class-validator rule says about a value, as JSON Schema keywords. A rule applied to each
 * item of an array (`each`) only gives the item's type and enumeration, which `@ApiProperty` carries
 * for arrays; bounds on items have no place there.
 */
function keywordsOf(rule: ValidationMetadata): PropertyDocs {
  const [constraint, second] = (rule.constraints ?? []) as unknown[];
  switch (rule.name ?? rule.type) {
    case 'isInt':
      return { type: 'integer' };
    case 'isIn':
      return Array.isArray(constraint) ? { enum: constraint } : {};
    case 'isEnum':
      return { enum: enumValues(constraint as Record<string, unknown>) };
    case 'isEmail':
      return { format: 'email' };
    case 'isUuid':
      return { format: 'uuid' };
    case 'isUrl':
      return { format: 'uri' };
    case 'isDateString':
    case 'isIso8601':
      return { format: 'date-time' };
    case 'matches':
      return constraint instanceof RegExp && constraint.flags === '' ? { pattern: constraint.source } : {};
    default:
      return rule.each ? {} : boundsOf(rule.name ?? rule.type, constraint, second);
  }
}

function boundsOf(name: string, constraint: unknown, second: unknown): PropertyDocs {
  switch (name) {
    case 'min':
      return { minimum: constraint };
    case 'max':
      return { maximum: constraint };
    case 'minLength':
      return { minLength: constraint };
    case 'maxLength':
      return { maxLength: constraint };
    case 'length':
      return { minLength: constraint, ...(typeof second === 'number' ? { maxLength: second } : {}) };
    case 'arrayMinSize':
      return { minItems: constraint };
    case 'arrayMaxSize':
      return { maxItems: constraint };
    default:
      return {};
  }
}

/** The values of a TypeScript enum: a numeric one also maps its values back to its names. */
function enumValues(enumObject: Record<string, unknown>): unknown[] {
  return Object.entries(enumObject)
    .filter(([key]) => !/^\d+$/.test(key))
    .map(([, value]) => value);
}

/**
 * Adds to every documented request property what its validation rules already say (integer, enum,
 * format, pattern, bounds), so the document states the rules the service enforces without each DTO
 * repeating them in `@ApiProperty`. What a DTO states itself wins. Runs on the decorators' metadata
 * (not on the finished document) so query parameters built from DTOs get the same keywords; running
 * it twice changes nothing.
 */
export function describeValidationRules(): void {
  const storage = getMetadataStorage() as unknown as {
    validationMetadatas: Map<abstract new (...args: never[]) => unknown, ValidationMetadata[]>;
  };
  for (const target of storage.validationMetadatas.keys()) {
    const prototype = (target as { prototype?: object }).prototype;
    if (!prototype) {
      continue;
    }
    const rules = getMetadataStorage().getTargetValidationMetadatas(target, '', true, false);
    const documented =
      (Reflect.getMetadata(API_MODEL_PROPERTIES_ARRAY, prototype) as string[] | undefined) ?? [];
    for (const key of documented.map((entry) => entry.replace(/^:/, ''))) {
      const docs = Reflect.getMetadata(API_MODEL_PROPERTIES, prototype, key) as PropertyDocs | undefined;
      if (!docs) {
        continue;
      }
      const derived: PropertyDocs = {};
      const derivedForItems: PropertyDocs = {};
      for (const rule of rules.filter((candidate) => candidate.propertyName === key)) {
        Object.assign(rule.each && isSchema(docs.items) ? derivedForItems : derived, keywordsOf(rule));
      }
      const stated = Object.fromEntries(Object.entries(docs).filter(([, value]) => value !== undefined));
      if (isSchema(docs.items)) {
        // An array typed by its own `items` schema: rules on each value describe the items.
        stated.items = { ...derivedForItems, ...docs.items };
      }
      const { type: derivedType, ...keywords } = derived;
      // `@ApiProperty` fills in the compiler's `Number` by itself; an integer rule is more exact.
      const integer =
        derivedType === 'integer' &&
        (stated.type === Number || stated.type === 'number' || stated.type === undefined);
      Reflect.defineMetadata(
        API_MODEL_PROPERTIES,
        { ...keywords, ...stated, ...(integer ? { type: 'integer' } : {}) },
        prototype,
        key,
      );
    }
  }
}
