import {
  Body,
  Controller,
  Delete,
  HttpCode,
  Inject,
  Param,
  Post,
  Put,
  Query,
  type Type,
} from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiBody,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiServiceUnavailableResponse,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { Permission, RequirePermission } from '@platform/auth';
import { IntegrationEntity, IntegrationsErrorBodyDto, type IntegrationSource } from '@platform/contracts';
import { Caller, type CallerContext } from '@platform/main-api-client';
import { createValidationPipe, RequestValidationError } from '@platform/runtime';
import { ENTITY_OPERATIONS, type EntityOperations } from './entity-operations';
import { ExternalIdParamsDto } from './dto/external-id-params.dto';
import { AssignPositionBody } from './dto/entity-bodies.dto';
import { ExternalDeleteDto, ExternalUsersDto, SourceQueryDto } from './dto/integration-common.dto';
import { IntegrationWritesService } from './integration-writes.service';

type Body = Record<string, unknown> & { metadata: { source: IntegrationSource } };

const WRITE_ERRORS =
  'Errors: ValidationError ZC002 (400: missing or malformed field, unknown metadata.source, a ' +
  'reference to an unknown external id); ExternalIdNotFoundError ZC001 (404); ' +
  'DuplicateExternalIdError ZC002 (422); main-api refusals with their status and message, ZC003; ' +
  'main-api unavailable, 503 ZC003 (retry the same request: it is never applied twice).';

/** `metadata.source` of a DELETE: in the body, or `?source=` (decisions §7). */
export function sourceOfDelete(
  body: ExternalDeleteDto | undefined,
  query: SourceQueryDto,
): IntegrationSource {
  const source = body?.metadata?.source ?? query.source;
  if (!source) {
    throw new RequestValidationError([
      {
        field: 'metadata.source',
        validation: 'isDefined',
        message: 'metadata.source is required: send {"metadata": {"source": ...}} or ?source=',
      },
    ]);
  }
  return source;
}

/** `@Body()` validated as `type`: the routes below are built at run time, so no compiler metadata. */
const ValidBody = (type: Type) => Body(createValidationPipe(type));

type Route = (writes: IntegrationWritesService, ...args: never[]) => Promise<object>;

/** Puts one route on the controller: the handler, its HTTP decorators, its parameters and its docs. */
function route(
  target: Type,
  name: string,
  handler: Route,
  decorators: MethodDecorator[],
  parameters: ParameterDecorator[],
): void {
  const prototype = target.prototype as object;
  Object.defineProperty(prototype, name, {
    value: function (this: { writes: IntegrationWritesService }, ...args: never[]) {
      return handler(this.writes, ...args);
    },
    writable: true,
    configurable: true,
  });
  const descriptor = Object.getOwnPropertyDescriptor(prototype, name) as PropertyDescriptor;
  parameters.forEach((decorate, index) => decorate(prototype, name, index));
  // Applied bottom-up, as the compiler applies a decorator list.
  for (const decorate of [...decorators].reverse()) {
    decorate(prototype, name, descriptor);
  }
  Object.defineProperty(prototype, name, descriptor);
}

const documented = (operationId: string, summary: string) => [
  ApiOperation({ operationId, summary, description: WRITE_ERRORS }),
  ApiBadRequestResponse({ type: IntegrationsErrorBodyDto, description: 'ValidationError (ZC002)' }),
  ApiServiceUnavailableResponse({
    type: IntegrationsErrorBodyDto,
    description: 'MainApiUnavailableError (ZC003)',
  }),
];
const NOT_FOUND = ApiNotFoundResponse({
  type: IntegrationsErrorBodyDto,
  description: 'ExternalIdNotFoundError (ZC001): no such external id for this source in your company',
});
const EXTERNAL_ID = ApiParam({
  name: 'external_id',
  example: 'EXT-42',
  description: "The external system's id",
});

/**
 * The controller of one entity (decisions §7): exactly the operations interfaces.md lists for it,
 * each a thin call to IntegrationWritesService.
 */
function entityController(operations: EntityOperations): Type {
  const { entity, singular } = operations;

  @ApiTags(`integrations: ${entity}`)
  @ApiBearerAuth()
  @RequirePermission(Permission.UseIntegrations)
  @Controller(entity)
  class EntityController {
    constructor(@Inject(IntegrationWritesService) readonly writes: IntegrationWritesService) {}
  }
  Object.defineProperty(EntityController, 'name', { value: `${operations.className}IntegrationController` });

  if (operations.create) {
    route(
      EntityController,
      'create',
      (writes, body: Body & { id: string }, caller: CallerContext) => writes.create(entity, body, caller),
      [
        Post(),
        ...documented(`${operations.className}_create`, operations.createSummary),
        ApiBody({ type: operations.create }),
        ApiCreatedResponse({ description: `The platform ${singular}, with its platform id in id` }),
        ApiUnprocessableEntityResponse({
          type: IntegrationsErrorBodyDto,
          description: 'DuplicateExternalIdError (ZC002)',
        }),
      ],
      [ValidBody(operations.create), Caller()],
    );
  }
  if (operations.update) {
    route(
      EntityController,
      'update',
      (writes, params: ExternalIdParamsDto, body: Body, caller: CallerContext) =>
        writes.update(entity, params.external_id, body, caller),
      [
        Put(':external_id'),
        ...documented(
          `${operations.className}_update`,
          `Update a ${singular} by external id (only the fields sent)`,
        ),
        EXTERNAL_ID,
        ApiBody({ type: operations.update }),
        ApiOkResponse({ description: `The updated platform ${singular}` }),
        NOT_FOUND,
      ],
      [Param(createValidationPipe(ExternalIdParamsDto)), ValidBody(operations.update), Caller()],
    );
  }
  if (operations.delete) {
    route(
      EntityController,
      'remove',
      (
        writes,
        params: ExternalIdParamsDto,
        body: ExternalDeleteDto | undefined,
        query: SourceQueryDto,
        caller: CallerContext,
      ) => writes.remove(entity, params.external_id, sourceOfDelete(body, query), caller),
      [
        Delete(':external_id'),
        ...documented(
          `${operations.className}_delete`,
          `Delete a ${singular} by external id, then its mapping`,
        ),
        EXTERNAL_ID,
        ApiBody({ type: ExternalDeleteDto, required: false }),
        ApiOkResponse({ description: `The deleted platform ${singular}` }),
        NOT_FOUND,
      ],
      [
        Param(createValidationPipe(ExternalIdParamsDto)),
        ValidBody(ExternalDeleteDto),
        Query(createValidationPipe(SourceQueryDto)),
        Caller(),
      ],
    );
  }
  if (operations.users) {
    const usersEntity = entity as IntegrationEntity.Contracts | IntegrationEntity.Teams;
    for (const [name, method, verb] of [
      ['attachUsers', 'POST', Post],
      ['detachUsers', 'DELETE', Delete],
    ] as const) {
      route(
        EntityController,
        name,
        (writes, params: ExternalIdParamsDto, body: ExternalUsersDto, caller: CallerContext) =>
          writes.changeUsers(usersEntity, params.external_id, body, method, caller),
        [
          verb(':external_id/users'),
          HttpCode(200),
          ...documented(
            `${operations.className}_${name}`,
            `${method === 'POST' ? 'Attach users to' : 'Detach users from'} a ${singular} (external ids)`,
          ),
          EXTERNAL_ID,
          ApiBody({ type: ExternalUsersDto }),
          ApiOkResponse({ description: `The platform ${singular} with its users` }),
          NOT_FOUND,
        ],
        [Param(createValidationPipe(ExternalIdParamsDto)), ValidBody(ExternalUsersDto), Caller()],
      );
    }
  }
  if (operations.position) {
    route(
      EntityController,
      'assignPosition',
      (writes, params: ExternalIdParamsDto, body: AssignPositionBody, caller: CallerContext) =>
        writes.assignPosition(params.external_id, body, caller),
      [
        Put(':external_id/position'),
        ...documented(`${operations.className}_assignPosition`, 'Assign a position (external id) to a user'),
        EXTERNAL_ID,
        ApiBody({ type: AssignPositionBody }),
        ApiOkResponse({ description: 'The updated platform user' }),
        NOT_FOUND,
      ],
      [Param(createValidationPipe(ExternalIdParamsDto)), ValidBody(AssignPositionBody), Caller()],
    );
  }
  return EntityController;
}

export const ENTITY_CONTROLLERS: Type[] = Object.values(ENTITY_OPERATIONS).map(entityController);
