import type { OpenAPIObject } from '@nestjs/swagger';
import { LIST_ITEM_SCHEMA, SPARSE_FIELDS } from '@platform/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { RequestValidationError } from '../errors/request-validation.error';
import type { PlatformExceptionFilter } from '../errors/platform-exception.filter';

type Schema = Record<string, unknown>;

/** The list's result schema, when the route is a list (`ApiPaginatedResponse`). */
function listItemSchemaOf(request: FastifyRequest): string | undefined {
  const config = request.routeOptions.config as unknown as Record<string, unknown> | undefined;
  const name = config?.[LIST_ITEM_SCHEMA];
  return typeof name === 'string' ? name : undefined;
}

function requestedFields(request: FastifyRequest): string[] | undefined {
  const fields = (request.query as Record<string, unknown> | undefined)?.fields;
  // Malformed: the list's DTO answers the 400 (ListQueryDto); here only well-formed lists.
  return typeof fields === 'string' && SPARSE_FIELDS.test(fields) ? fields.split(',') : undefined;
}

/**
 * `fields=` on every list (issue 36), from the service's own document: the fields a list may select
 * are the properties of its result's schema, so no list keeps a second copy of them. Applied to the
 * route's 200 answer, so authentication, permissions and the list's own checks answer first:
 * - an unknown field, or `fields` without a cursor page, is a 400 naming it (a read, so the query
 *   that ran has changed nothing);
 * - otherwise each result of the cursor page keeps the fields asked for, and `id`.
 */
export function answerSparseFieldsets(
  fastify: FastifyInstance,
  document: OpenAPIObject,
  filter: PlatformExceptionFilter,
): void {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Schema>;
  const known = new Map<string, Set<string>>();
  for (const [name, schema] of Object.entries(schemas)) {
    known.set(name, new Set(Object.keys((schema.properties as Schema | undefined) ?? {})));
  }

  fastify.addHook('preSerialization', (request, reply, payload, done) => {
    const item = listItemSchemaOf(request);
    const fields = item && reply.statusCode === 200 ? requestedFields(request) : undefined;
    if (!item || !fields) {
      done(null, payload);
      return;
    }
    const properties = known.get(item) ?? new Set<string>();
    const page = payload as { data?: unknown; has_more?: unknown };
    const errors = fields
      .filter((field) => !properties.has(field))
      .map((field) => ({
        field: 'fields',
        validation: 'isKnownField',
        message: `fields: ${field} is not a field of this list's results (${[...properties].join(', ')})`,
      }));
    const cursorPage = Array.isArray(page.data) && 'has_more' in page;
    if (!cursorPage) {
      errors.push({
        field: 'fields',
        validation: 'needsCursorPage',
        message: 'fields selects the fields of a cursor page: send it with limit or cursor',
      });
    }
    if (errors.length > 0) {
      const { status, body } = filter.toResponse(new RequestValidationError(errors), request);
      void reply.status(status);
      done(null, body);
      return;
    }
    const kept = new Set(['id', ...fields]);
    const data = (page.data as Schema[]).map((result) =>
      Object.fromEntries(Object.entries(result).filter(([field]) => kept.has(field))),
    );
    done(null, { ...page, data });
  });
}

/**
 * In the document: a cursor page of a list that takes `fields` has results of the full schema, or
 * of its sparse form (`<Schema>Fields`: the same properties, only `id` required).
 */
export function declareSparseFieldsets(document: OpenAPIObject): void {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Schema>;
  for (const pathItem of Object.values(document.paths)) {
    const list = (pathItem as { get?: Schema }).get;
    const takesFields = (list?.parameters as { name: string }[] | undefined)?.some(
      (parameter) => parameter.name === 'fields',
    );
    const response = (list?.responses as Record<string, Schema> | undefined)?.['200'];
    const schema = (response?.content as Record<string, { schema?: Schema }> | undefined)?.[
      'application/json'
    ]?.schema;
    const cursorPage = (schema?.oneOf as Schema[] | undefined)?.find(
      (alternative) => (alternative.properties as Schema | undefined)?.next_cursor !== undefined,
    );
    const data = (cursorPage?.properties as Record<string, Schema> | undefined)?.data;
    const full = (data?.items as Schema | undefined)?.$ref;
    if (!takesFields || !data || typeof full !== 'string') {
      continue;
    }
    const name = full.split('/').pop()!;
    const sparseName = `${name}Fields`;
    if (!schemas[sparseName]) {
      const { required: _required, ...rest } = schemas[name] ?? {};
      const hasId = (rest.properties as Schema | undefined)?.id !== undefined;
      schemas[sparseName] = {
        ...rest,
        description: `${name} with only the fields a list's \`fields\` asked for (and id)`,
        ...(hasId ? { required: ['id'] } : {}),
      };
    }
    data.items = { anyOf: [{ $ref: full }, { $ref: `#/components/schemas/${sparseName}` }] };
  }
}
