import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC_KEY = 'platform:isPublic';

/** Marks a route as reachable without a bearer token (health, metrics, token endpoints). */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(IS_PUBLIC_KEY, true);
