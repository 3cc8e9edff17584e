import type { OperationObject } from './error-responses';

type Schema = Record<string, unknown>;
type Parameter = NonNullable<OperationObject['parameters']>[number] & {
  description?: string;
  required?: boolean;
};

const ETAG_HEADER = {
  ETag: {
    description:
      'Strong entity tag of this answer (RFC 9110): `"<version>-<digest>"` for one resource, `"<digest>"` otherwise',
    schema: { type: 'string' },
  },
};

/**
 * Conditional requests in the document (`conditional-requests.ts`), the same on every service:
 * - every GET: `If-None-Match`, the ETag of its 200 and its 304;
 * - a resource's writes (`ConditionalResource`): `If-Match`, the ETag of their 200 and a 412 whose
 *   body is the service's error body with `current`, the resource as its GET answers it (an action's,
 *   `POST /x/{id}/approve`, as the GET of `/x/{id}`).
 * `ConditionalResource` declares both headers and the 412 on each of its routes; here each method
 * keeps what applies to it.
 */
export function declareConditionalRequests(
  paths: Record<string, Record<string, OperationObject>>,
  errorBody: Schema | undefined,
): void {
  for (const [path, pathItem] of Object.entries(paths)) {
    const read = pathItem.get ?? paths[resourceOfAction(path) ?? '']?.get;
    for (const [method, operation] of Object.entries(pathItem)) {
      if (typeof operation !== 'object' || operation === null || !('responses' in operation)) {
        continue;
      }
      if (method === 'get') {
        operation.parameters = (operation.parameters ?? []).filter(
          (parameter) => parameter.name !== 'If-Match',
        );
        delete operation.responses['412'];
        if (!operation.parameters.some((parameter) => parameter.name === 'If-None-Match')) {
          operation.parameters.push({
            name: 'If-None-Match',
            in: 'header',
            required: false,
            description: 'ETags the caller holds; 304 with no body when the answer still has one of them',
            schema: { type: 'string' },
          } as Parameter);
        }
        withEtag(operation.responses['200']);
        operation.responses['304'] = {
          description: 'Not modified: the ETag named in If-None-Match is current',
        };
        continue;
      }
      operation.parameters = operation.parameters?.filter((parameter) => parameter.name !== 'If-None-Match');
      if (!operation.responses['412']) {
        continue;
      }
      withEtag(operation.responses['200']);
      const current = (
        read?.responses['200']?.content as { 'application/json'?: { schema?: Schema } } | undefined
      )?.['application/json']?.schema;
      if (errorBody && current) {
        operation.responses['412'] = {
          description: operation.responses['412'].description,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: { ...(errorBody.properties as Schema), current },
                required: [...((errorBody.required as string[] | undefined) ?? []), 'current'],
              },
            },
          },
        };
      }
    }
  }
}

/**
 * The resource an action route acts on (`/leaves/{id}/approve` acts on `/leaves/{id}`): a 412 of the
 * action shows that resource as its GET answers it.
 */
function resourceOfAction(path: string): string | undefined {
  const parent = path.slice(0, path.lastIndexOf('/'));
  return parent.endsWith('}') ? parent : undefined;
}

function withEtag(response: { headers?: Schema } | undefined): void {
  if (response) {
    response.headers = { ...response.headers, ...ETAG_HEADER };
  }
}
