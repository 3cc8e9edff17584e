import { writeFileSync } from 'node:fs';
import { RequestMethod, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import type { ClassConstructor } from 'class-transformer';
import { FILTERS_EXAMPLE_EXTENSION } from '@platform/contracts';
import type { BaseServiceEnv } from '../config/base-service.env';
import { loadEnv } from '../config/load-env';
import {
  declareErrorResponses,
  errorStatusesOf,
  exampleFailureOf,
  type OperationObject,
} from './openapi/error-responses';
import { declareConditionalRequests } from './openapi/conditional-responses';
import { declareSparseFieldsets } from './sparse-fieldsets';
import { toOpenApi31 } from './openapi/openapi-3-1';
import { describeValidationRules } from './openapi/schema-from-validation-rules';
import type { ServiceDefinition } from './service-definition';

/** Routes every service serves outside its API prefix (docs/spec/decisions.md §1). */
export const OUTSIDE_PREFIX = [
  { path: 'health/live', method: RequestMethod.GET },
  { path: 'health/ready', method: RequestMethod.GET },
  { path: 'health/ready/self', method: RequestMethod.GET },
  { path: 'metrics', method: RequestMethod.GET },
];

/** The service's OpenAPI 3.1 document, from its controllers, DTOs and validation rules. */
export function buildOpenApiDocument(
  app: INestApplication,
  definition: ServiceDefinition<BaseServiceEnv>,
): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle(definition.title)
    .setDescription(definition.description)
    .setVersion(definition.version)
    .addServer('/', 'This service (its base URL)')
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description: "An access token from main-api's token endpoint (`/v1/oauth/token`)",
      },
      BEARER,
    )
    .build();
  describeValidationRules();
  const document = SwaggerModule.createDocument(app, config, {
    extraModels: [definition.errorBody, ...(definition.openApi?.extraModels ?? [])],
    operationIdFactory: operationIdOf,
  });
  for (const [alias, path] of Object.entries(definition.openApi?.aliases ?? {})) {
    document.paths[alias] = aliasOf(document.paths[path], alias);
  }
  const bearer: Record<string, string[]>[] = definition.openApi?.oauth2
    ? [{ [BEARER]: [] }, { [OAUTH2]: [] }]
    : [{ [BEARER]: [] }];
  // Each error status's example: the body this service renders for a typical failure of that status.
  const errorExampleOf = (status: string) => definition.renderError(exampleFailureOf(status), undefined).body;
  finishOperations(document, { schema: definition.errorBody.name, exampleOf: errorExampleOf }, bearer);
  declareConditionalRequests(
    document.paths as Record<string, Record<string, OperationObject>>,
    document.components?.schemas?.[definition.errorBody.name] as Record<string, unknown> | undefined,
  );
  declareSparseFieldsets(document);
  closeObjectSchemas([document.components?.schemas, document.paths]);
  if (definition.openApi?.oauth2) {
    document.components!.securitySchemes![OAUTH2] = definition.openApi.oauth2;
  }
  if (definition.openApi?.clientSecretBasic) {
    document.components!.securitySchemes![CLIENT_SECRET_BASIC] = {
      type: 'http',
      scheme: 'basic',
      description: 'client_secret_basic (RFC 6749 §2.3.1): client id and secret, form-encoded',
    };
  }
  const finished = toOpenApi31(document);
  if (definition.openApi?.webhooks) {
    Object.assign(finished, { webhooks: definition.openApi.webhooks });
  }
  return finished;
}

const BEARER = 'bearer';
const OAUTH2 = 'oauth2';
const CLIENT_SECRET_BASIC = 'clientSecretBasic';
/** Set by `@Public()` (libs/auth). */
const PUBLIC_EXTENSION = 'x-public';
/** The name `@ApiBasicAuth()` gives its scheme. */
const NEST_BASIC = 'basic';

/**
 * `clients_create`, `projects_searchByName`: the resource (the controller's name) and the verb (the
 * handler's), which is what generated clients make method names of. `remove` and `detail` read as the
 * HTTP verbs they are.
 */
function operationIdOf(controllerKey: string, methodKey: string): string {
  const resource = controllerKey.replace(/(Integration)?Controller$/, '');
  const verb = ({ remove: 'delete', detail: 'get' } as Record<string, string>)[methodKey] ?? methodKey;
  // The leading capitals in lower case: `OAuth` → `oauth`, `PositionCategories` → `positionCategories`.
  return `${resource.replace(/^[A-Z]+/, (capitals) => capitals.toLowerCase())}_${verb}`;
}

/** A copy of a path item whose operations get their own ids (`…_atRoot`), as ids must be unique. */
function aliasOf<PathItem>(pathItem: PathItem, alias: string): PathItem {
  if (!pathItem) {
    throw new Error(`OpenAPI: ${alias} is an alias of a path the document does not have`);
  }
  const copy = structuredClone(pathItem) as Record<string, OperationObject>;
  for (const operation of Object.values(copy)) {
    if (operation.operationId) {
      operation.operationId = `${operation.operationId}AtRoot`;
    }
  }
  return copy as PathItem;
}

function parameterRank(path: string, parameter: { name: string; in: string }): number {
  const position = path.indexOf(`{${parameter.name}}`);
  return parameter.in === 'path' && position >= 0 ? position : Number.MAX_SAFE_INTEGER;
}

/**
 * Every operation states its security and its errors: public ones (marked by `@Public()`) none or the
 * client authentication they take, the others the bearer token, with the 401 and 403 answers every
 * protected route can give; error statuses with the service's body (error-responses.ts).
 */
function finishOperations(
  document: OpenAPIObject,
  errorBody: { schema: string; exampleOf: (status: string) => unknown },
  bearer: Record<string, string[]>[],
): void {
  const operationIds = new Set<string>();
  for (const [path, pathItem] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(pathItem as Record<string, OperationObject>)) {
      if (typeof operation !== 'object' || operation === null || !('responses' in operation)) {
        continue;
      }
      if (operation.operationId) {
        if (operationIds.has(operation.operationId)) {
          throw new Error(`OpenAPI: operationId ${operation.operationId} is used twice`);
        }
        operationIds.add(operation.operationId);
      }
      // Path parameters in the order of the path, then the others by name: the same document
      // whether the app runs or is only previewed.
      operation.parameters?.sort(
        (a, b) => parameterRank(path, a) - parameterRank(path, b) || a.name.localeCompare(b.name),
      );
      for (const parameter of operation.parameters ?? []) {
        // Every path parameter of the platform typed a number is an id: an integer.
        if (parameter.in === 'path' && parameter.schema?.type === 'number') {
          parameter.schema.type = 'integer';
        }
      }
      const isPublic = operation[PUBLIC_EXTENSION] === true;
      delete operation[PUBLIC_EXTENSION];
      if (isPublic) {
        const clientAuthentication = operation.security?.some((requirement) => NEST_BASIC in requirement);
        // The token endpoints take the client's credentials as Basic, in the form, or none (PKCE).
        operation.security = clientAuthentication ? [{ [CLIENT_SECRET_BASIC]: [] }, {}] : [];
      } else {
        operation.security = bearer;
      }
      useFiltersExample(method, path, operation);
      declareErrorResponses(
        operation,
        errorStatusesOf(method, path, operation, !isPublic),
        errorBody.schema,
        errorBody.exampleOf,
      );
      if (!isPublic) {
        announceQuota(operation);
      }
    }
  }
}

/** Every authenticated answer announces the company's quota (TenantQuotaGuard, libs/auth). */
function announceQuota(operation: OperationObject): void {
  for (const [status, response] of Object.entries(operation.responses)) {
    if (/^[2-5]\d\d$/.test(status) && status !== '401') {
      response.headers = {
        ...response.headers,
        'RateLimit-Policy': {
          description:
            'The company\'s quota on this service: `"tenant";q=<requests>;w=60` (IETF RateLimit fields)',
          schema: { type: 'string' },
        },
        RateLimit: {
          description: 'What is left of it: `"tenant";r=<requests left>;t=<seconds until whole again>`',
          schema: { type: 'string' },
        },
      };
    }
  }
}

/**
 * A list's `filters` example is the one its route gives (`@ApiFiltersExample`, libs/contracts):
 * filter keys differ per resource, and Swagger UI's "Try it out" sends the example as it is.
 */
function useFiltersExample(method: string, path: string, operation: OperationObject): void {
  const example = operation[FILTERS_EXAMPLE_EXTENSION];
  delete operation[FILTERS_EXAMPLE_EXTENSION];
  const filters = operation.parameters?.find(
    (parameter) => parameter.in === 'query' && parameter.name === 'filters',
  );
  if (!filters) {
    return;
  }
  if (example === undefined) {
    throw new Error(
      `OpenAPI: ${method.toUpperCase()} ${path} takes filters but gives no example of its own (@ApiFiltersExample)`,
    );
  }
  filters.schema = { ...filters.schema, example: JSON.stringify(example) };
}

const isSchema = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Objects with named properties take no others: answers are exact (a field the document does not
 * name is a drift the tests catch) and requests are refused with unknown fields anyway. Ids, which
 * the platform keeps in integer columns, are integers wherever a DTO left them `number`.
 */
function closeObjectSchemas(roots: unknown[]): void {
  const visit = (schema: unknown): void => {
    if (Array.isArray(schema)) {
      schema.forEach(visit);
      return;
    }
    if (!isSchema(schema)) {
      return;
    }
    if (isSchema(schema.properties)) {
      schema.additionalProperties ??= false;
      for (const [name, property] of Object.entries(schema.properties)) {
        if (isSchema(property) && property.type === 'number' && /(^id|_id|Id)$/.test(name)) {
          property.type = 'integer';
        }
        visit(property);
      }
    }
    if (isSchema(schema.properties) || 'type' in schema || '$ref' in schema) {
      for (const key of ['items', 'allOf', 'oneOf', 'anyOf', 'additionalProperties']) {
        visit(schema[key]);
      }
      return;
    }
    // Not a schema: a map of schemas, paths, operations, responses or media types.
    Object.values(schema).forEach(visit);
  };
  roots.forEach(visit);
}

/**
 * Writes the document without running the service: the app is built in preview mode (no provider is
 * instantiated, so no database or main-api is needed) with placeholder settings.
 */
export async function exportOpenApiDocument<Env extends BaseServiceEnv>(
  definition: ServiceDefinition<Env>,
  envClass: ClassConstructor<Env>,
  placeholders: Record<string, string>,
  file: string,
): Promise<void> {
  const env = loadEnv(envClass, {
    DATABASE_URL: 'postgres://openapi@127.0.0.1:5432/openapi',
    LOG_LEVEL: 'silent',
    ...placeholders,
  });
  const app = await NestFactory.create<NestFastifyApplication>(
    definition.rootModule(env),
    new FastifyAdapter(),
    {
      preview: true,
      logger: false,
      abortOnError: false,
    },
  );
  if (definition.globalPrefix) {
    app.setGlobalPrefix(definition.globalPrefix, { exclude: OUTSIDE_PREFIX });
  }
  const document = buildOpenApiDocument(app, definition);
  writeFileSync(file, `${JSON.stringify(document, null, 2)}\n`);
  await app.close();
}
