type Schema = Record<string, unknown>;

const isObject = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * One schema in OpenAPI 3.1's JSON Schema: `nullable: true` (3.0, which @nestjs/swagger writes)
 * becomes `null` among the types, or `oneOf` with `null` around a reference, which 3.0 could not
 * make nullable at all (`pm` of a project without a PM).
 */
function toJsonSchema(schema: Schema): Schema {
  const converted: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'nullable') {
      continue;
    }
    converted[key] = convertValue(key, value);
  }
  if (schema.nullable !== true) {
    return converted;
  }
  const reference = converted.$ref ?? (Array.isArray(converted.allOf) && converted.allOf.length === 1);
  if (reference) {
    const { $ref, allOf, type: _type, ...annotations } = converted;
    const target = $ref ? { $ref } : (allOf as Schema[])[0];
    return { ...annotations, oneOf: [target, { type: 'null' }] };
  }
  if (typeof converted.type === 'string') {
    converted.type = [converted.type, 'null'];
  }
  const values = converted.enum as unknown[] | undefined;
  if (Array.isArray(values) && !values.includes(null)) {
    converted.enum = [...values, null];
  }
  return converted;
}

function convertValue(key: string, value: unknown): unknown {
  if (Array.isArray(value)) {
    return (value as unknown[]).map((item) => (isObject(item) ? convertNode(item) : item));
  }
  if (!isObject(value)) {
    return value;
  }
  // `properties`, `paths`, `responses`… are maps whose keys are names, not keywords.
  if (key === 'example' || key === 'examples' || key === 'default' || key === 'const') {
    return value;
  }
  return convertNode(value);
}

function convertNode(node: Schema): Schema {
  if ('nullable' in node) {
    return toJsonSchema(node);
  }
  const converted: Schema = {};
  for (const [key, value] of Object.entries(node)) {
    converted[key] = convertValue(key, value);
  }
  return converted;
}

/** The whole document as OpenAPI 3.1.0 (JSON Schema 2020-12 schemas, `webhooks` allowed). */
export function toOpenApi31<Document extends object>(document: Document): Document {
  return { ...(convertNode(document as Schema) as Document), openapi: '3.1.0' };
}
