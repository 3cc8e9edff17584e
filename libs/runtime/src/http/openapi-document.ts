import { writeFileSync } from 'node:fs';
import { RequestMethod, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import type { ClassConstructor } from 'class-transformer';
import type { BaseServiceEnv } from '../config/base-service.env';
import { loadEnv } from '../config/load-env';
import type { ServiceDefinition } from './service-definition';

/** Routes every service serves outside its API prefix (decisions §1). */
export const OUTSIDE_PREFIX = [
  { path: 'health/live', method: RequestMethod.GET },
  { path: 'health/ready', method: RequestMethod.GET },
  { path: 'metrics', method: RequestMethod.GET },
];

/** The service's OpenAPI 3 document, from its controllers and DTOs. */
export function buildOpenApiDocument(
  app: INestApplication,
  definition: ServiceDefinition<BaseServiceEnv>,
): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle(definition.title)
    .setDescription(definition.description)
    .setVersion(definition.version)
    .addServer('/', 'This service (its base URL)')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, BEARER)
    .build();
  const document = SwaggerModule.createDocument(app, config, { extraModels: [definition.errorBody] });
  declareSecurity(document, definition.errorBody.name);
  return document;
}

const BEARER = 'bearer';

/** The parts of an OpenAPI operation this file touches. */
interface OperationObject {
  responses: Record<string, unknown>;
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string }[];
}

function parameterRank(path: string, parameter: { name: string; in: string }): number {
  const position = path.indexOf(`{${parameter.name}}`);
  return parameter.in === 'path' && position >= 0 ? position : Number.MAX_SAFE_INTEGER;
}
const PUBLIC_EXTENSION = 'x-public';

/**
 * Every operation states its security: public ones (marked by `@Public()`) none, the others the
 * bearer token, with the 401 and 403 answers every protected route can give in the service's body.
 */
function declareSecurity(document: OpenAPIObject, errorSchema: string): void {
  const errorResponse = (description: string) => ({
    description,
    content: { 'application/json': { schema: { $ref: `#/components/schemas/${errorSchema}` } } },
  });
  for (const [path, pathItem] of Object.entries(document.paths)) {
    for (const operation of Object.values(pathItem as Record<string, OperationObject>)) {
      if (typeof operation !== 'object' || operation === null || !('responses' in operation)) {
        continue;
      }
      // Path parameters in the order of the path, then the others by name: the same document
      // whether the app runs or is only previewed.
      operation.parameters?.sort(
        (a, b) => parameterRank(path, a) - parameterRank(path, b) || a.name.localeCompare(b.name),
      );
      const extensible = operation as OperationObject & { [PUBLIC_EXTENSION]?: boolean };
      if (extensible[PUBLIC_EXTENSION]) {
        delete extensible[PUBLIC_EXTENSION];
        operation.security = [];
        continue;
      }
      operation.security = [{ [BEARER]: [] }];
      operation.responses['401'] ??= errorResponse('Missing, malformed, expired or forged bearer token');
      operation.responses['403'] ??= errorResponse(
        "Your role may not do this, or the body names another company's id",
      );
    }
  }
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
