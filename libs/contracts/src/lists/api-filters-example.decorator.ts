import { ApiExtension } from '@nestjs/swagger';

/** Where `@ApiFiltersExample` keeps its example until the document is finished (libs/runtime). */
export const FILTERS_EXAMPLE_EXTENSION = 'x-filters-example';

/**
 * The `filters` example of a list route's OpenAPI document: filter keys differ per resource, so each
 * list names a valid one, which Swagger UI's "Try it out" sends as it is (main-api's openapi e2e
 * spec sends every one). A list taking `filters` without it fails the document's generation.
 */
export function ApiFiltersExample(example: Record<string, unknown>): MethodDecorator {
  return ApiExtension(FILTERS_EXAMPLE_EXTENSION, example);
}
