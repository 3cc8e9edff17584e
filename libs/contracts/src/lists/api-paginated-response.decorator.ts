import { applyDecorators, type Type } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiExtraModels, ApiOkResponse, getSchemaPath } from '@nestjs/swagger';

/**
 * Fastify route config of a list: the name of its result's schema in the service's document, by
 * which `fields=` is checked and applied (libs/runtime sparse-fieldsets.ts).
 */
export const LIST_ITEM_SCHEMA = 'platformListItemSchema';

/**
 * Documents a list route: the paginated body `{total, perPage, page, lastPage, data: Item[]}`, a
 * plain `Item[]` with `page=false` (docs/spec/decisions.md §5), or a cursor page `{data, next_cursor,
 * has_more}` with `limit` or `cursor` (issue 36).
 */
export function ApiPaginatedResponse(
  item: Type,
  /** `false` for a list that takes only page and perPage (no cursor page in its answers). */
  options: { cursorPages?: boolean } = {},
): MethodDecorator & ClassDecorator {
  const items = { type: 'array' as const, items: { $ref: getSchemaPath(item) } };
  return applyDecorators(
    RouteConfig({ [LIST_ITEM_SCHEMA]: item.name }),
    ApiExtraModels(item),
    ApiOkResponse({
      description:
        'A page of results, every result as an array with page=false, or a cursor page with limit or cursor',
      schema: {
        oneOf: [
          {
            type: 'object',
            required: ['total', 'perPage', 'page', 'lastPage', 'data'],
            properties: {
              total: {
                type: 'string',
                example: '137',
                description: 'Count of all matching results, as a string',
              },
              perPage: { type: 'integer', example: 20 },
              page: { type: 'integer', example: 1 },
              lastPage: { type: 'integer', example: 7 },
              data: items,
            },
          },
          items,
          ...(options.cursorPages === false ? [] : [cursorPageOf(items)]),
        ],
      },
    }),
  );
}

function cursorPageOf(items: object): object {
  return {
    type: 'object',
    required: ['data', 'next_cursor', 'has_more'],
    properties: {
      data: items,
      next_cursor: {
        type: 'string',
        nullable: true,
        description: 'Send as cursor for the next page; null on the last one',
      },
      has_more: { type: 'boolean' },
    },
  };
}
