import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiForbiddenResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { Permission } from './permission';

export const REQUIRED_PERMISSION_KEY = 'platform:requiredPermission';

/**
 * Who may call a route, with its OpenAPI description in the same place. A route without it is open
 * to any authenticated caller of the company.
 */
export const RequirePermission = (permission: Permission): MethodDecorator & ClassDecorator =>
  applyDecorators(
    SetMetadata(REQUIRED_PERMISSION_KEY, permission),
    ApiBearerAuth(),
    ApiUnauthorizedResponse({ description: 'Missing, invalid or expired access token' }),
    ApiForbiddenResponse({ description: `The caller's role lacks the "${permission}" permission` }),
  );
