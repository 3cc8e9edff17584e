import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import addFormats from 'ajv-formats';
import { OpenAPIBackend, ValidationContext, type Document } from 'openapi-backend';

/** One answer of a service, as any client saw it. */
export interface ObservedResponse {
  method: string;
  /** Path and query, e.g. `/v1/projects?page=2`. */
  url: string;
  status: number;
  contentType?: string;
  body: string;
}

/**
 * Routes every service serves that its document leaves out on purpose: Prometheus' text format, the
 * documents themselves, and the probes tests mount beside a service.
 */
const UNDOCUMENTED_ROUTES = /^\/(metrics|docs|docs-json)(\/|$)|\/test-probe(\/|$)/;

/** Refusals a request meets before it reaches a route, so on paths no operation has. */
const BEFORE_ROUTING = new Set([400, 404, 405, 413, 415]);

type Response = { content?: Record<string, { schema?: unknown }> };

/**
 * A service's committed OpenAPI document (`openapi/<service>.json`) as a contract every answer must
 * keep: its operation exists, its status is declared, its media type is declared, and its JSON body
 * matches the schema of that status (objects take no undeclared fields). Validation is
 * openapi-backend's, with ajv and ajv-formats, not this project's code.
 */
export class OpenApiContract {
  private constructor(
    readonly service: string,
    private readonly api: OpenAPIBackend,
  ) {}

  private static readonly loaded = new Map<string, Promise<OpenApiContract>>();

  /** The contract of `main-api`, `planner` or `integrations`, read once per process. */
  static of(service: string): Promise<OpenApiContract> {
    let contract = OpenApiContract.loaded.get(service);
    if (!contract) {
      const file = join(__dirname, '../../../openapi', `${service}.json`);
      const definition = JSON.parse(readFileSync(file, 'utf8')) as Document;
      const api = new OpenAPIBackend({
        definition,
        strict: true,
        validate: true,
        // Skips openapi-backend's own check of the document, which knows OpenAPI 3.0 only; the
        // documents are linted as 3.1 by Redocly (`npm run openapi:lint`, in CI).
        quick: true,
        // The services route `/v1/users/` to no operation (404), as the document does.
        ignoreTrailingSlashes: false,
        ajvOpts: { strict: false, allErrors: true },
        customizeAjv: (ajv) => {
          addFormats(ajv);
          return ajv;
        },
      });
      contract = api.init().then(() => new OpenApiContract(service, api));
      OpenApiContract.loaded.set(service, contract);
    }
    return contract;
  }

  /** What in a request this service sends (an OpenAPI 3.1 `webhooks` entry) the document does not say. */
  problemsWithWebhook(name: string, body: unknown): string[] {
    const webhooks = (
      this.api.definition as { webhooks?: Record<string, { post?: { requestBody?: unknown } }> }
    ).webhooks;
    const requestBody = webhooks?.[name]?.post?.requestBody as Response | undefined;
    const schema = requestBody?.content?.['application/json']?.schema;
    if (!schema) {
      return [`webhook ${name}: not in openapi/${this.service}.json`];
    }
    const validate = this.api.validator.getAjv(ValidationContext.RequestBody).compile(schema);
    return validate(body)
      ? []
      : (validate.errors ?? []).map((error) => `webhook ${name}: body${error.instancePath} ${error.message}`);
  }

  /** What in the answer the document does not say; empty when it keeps the contract. */
  problemsWith(response: ObservedResponse): string[] {
    const method = response.method.toUpperCase();
    const [path, query = ''] = response.url.split('?', 2);
    const where = `${method} ${response.url.slice(0, 200)} → ${response.status}`;
    if (method === 'OPTIONS' || method === 'HEAD' || UNDOCUMENTED_ROUTES.test(path)) {
      return [];
    }
    const operation = this.api.matchOperation({
      method,
      path,
      query: Object.fromEntries(new URLSearchParams(query)),
      headers: {},
    });
    if (!operation) {
      // An unknown route's 404 (or a body refused before routing) is the service's, not an operation's.
      return BEFORE_ROUTING.has(response.status)
        ? []
        : [`${where}: no operation in openapi/${this.service}.json`];
    }
    const declared = (operation.responses as Record<string, Response | undefined>)[String(response.status)];
    if (!declared) {
      return [`${where}: status ${response.status} is not declared for ${operation.operationId}`];
    }
    const mediaType = response.contentType?.split(';')[0].trim();
    if (!declared.content) {
      return response.body === ''
        ? []
        : [`${where}: ${operation.operationId} declares no body for ${response.status}, got ${mediaType}`];
    }
    if (!mediaType || !declared.content[mediaType]) {
      return [`${where}: media type ${mediaType ?? '(none)'} is not declared for ${operation.operationId}`];
    }
    if (mediaType !== 'application/json') {
      return [];
    }
    let body: unknown;
    try {
      body = JSON.parse(response.body);
    } catch {
      return [`${where}: the body is not JSON`];
    }
    const result = this.api.validateResponse(body, operation, response.status);
    return (result.errors ?? []).map(
      (error) =>
        `${where}: ${operation.operationId} body${error.instancePath} ${error.message}` +
        (error.params && Object.keys(error.params).length > 0 ? ` ${JSON.stringify(error.params)}` : ''),
    );
  }
}
