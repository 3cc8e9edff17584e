import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';

export const IS_PUBLIC_KEY = 'platform:isPublic';

/** OpenAPI extension marking the operation public; the document builder turns it into `security: []`. */
export const PUBLIC_OPERATION_EXTENSION = 'x-public';

/** Marks a route as reachable without a bearer token (health, metrics, token endpoints). */
export const Public = (): MethodDecorator & ClassDecorator =>
  applyDecorators(SetMetadata(IS_PUBLIC_KEY, true), ApiExtension(PUBLIC_OPERATION_EXTENSION, true));
