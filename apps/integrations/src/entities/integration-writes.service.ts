import { createHash } from 'node:crypto';
import { Inject, Injectable, type Type } from '@nestjs/common';
import {
  CHANGE_ORIGIN_HEADER,
  CHANGE_ORIGIN_SIGNATURE_HEADER,
  PrincipalContext,
  signChangeOrigin,
} from '@platform/auth';
import { IntegrationEntity, type IntegrationSource } from '@platform/contracts';
import { MainApiClient, type CallerContext, type MainApiRequest } from '@platform/main-api-client';
import { RequestValidationError } from '@platform/runtime';
import { IntegrationsErrorCode } from '../errors/integrations-error-code';
import { INTEGRATIONS_ENV, type IntegrationsEnv } from '../config/integrations.env';
import { asMainApiError, ExternalIdNotFoundError, IntegrationsError } from '../errors/integrations.errors';
import { MappingsRepository, type MappingKey } from '../mappings/mappings.repository';
import {
  ENTITY_OPERATIONS,
  type EntityAnswer,
  type EntityOperations,
  type EntityResponses,
} from './entity-operations';
import { shapeAs } from './response-shape';

type Body = Record<string, unknown>;
type WithSource = { metadata: { source: IntegrationSource } };

/** The answer to a delete: the deleted entity, or only its id when main-api no longer had it. */
export type DeletedEntityAnswer<E extends IntegrationEntity> = IntegrationEntity extends E
  ? Body
  : EntityResponses[E] extends infer Answer
    ? Answer extends readonly unknown[]
      ? Answer
      : Answer extends { id: number }
        ? Pick<Answer, 'id'> & Partial<Answer>
        : never
    : never;

/**
 * Create, update and delete platform entities by an external system's ids (decisions §7). A create
 * reserves the external id, creates the entity in main-api under an idempotency key derived from the
 * request, then completes the mapping: a race has one winner, a failure leaves no mapping behind, and
 * the same request retried is replayed by main-api instead of creating a second entity.
 */
@Injectable()
export class IntegrationWritesService {
  constructor(
    private readonly mappings: MappingsRepository,
    private readonly mainApi: MainApiClient,
    private readonly principals: PrincipalContext,
    @Inject(INTEGRATIONS_ENV) private readonly env: IntegrationsEnv,
  ) {}

  async create<E extends IntegrationEntity>(
    entity: E,
    body: WithSource & { id: string },
    caller: CallerContext,
  ): Promise<EntityAnswer<E>> {
    const definition = ENTITY_OPERATIONS[entity];
    const key: MappingKey = { source: body.metadata.source, entity, externalId: body.id };
    const mainApiBody = await this.translate(definition, key.source, body);
    const reservation = await this.mappings.reserve(key);
    if (!reservation) {
      throw duplicate(key);
    }
    const target = definition.createRequest?.(mainApiBody) ?? {
      method: 'POST' as const,
      path: definition.mainApiPath,
      body: mainApiBody,
    };
    let created: Body;
    try {
      created = await this.call(key.source, {
        method: target.method,
        path: target.path,
        body: target.body,
        caller,
        idempotencyKey: this.idempotencyKeyFor(key, reservation.generation, target.body),
      });
    } catch (error) {
      // Refused or unreachable: nothing to map. A retry of the same request carries the same
      // idempotency key, so if main-api did create the entity it answers that one again.
      await this.mappings.release(reservation);
      throw error;
    }
    await this.mappings.complete(reservation, target.platformId ?? Number(created.id));
    return this.render(entity, created);
  }

  async update<E extends IntegrationEntity>(
    entity: E,
    externalId: string,
    body: WithSource,
    caller: CallerContext,
  ): Promise<EntityAnswer<E>> {
    const definition = ENTITY_OPERATIONS[entity];
    const platformId = await this.platformIdOf({ source: body.metadata.source, entity, externalId });
    const updated = await this.call(body.metadata.source, {
      method: 'PUT',
      path: `${definition.mainApiPath}/${platformId}`,
      body: await this.translate(definition, body.metadata.source, body),
      caller,
    });
    return this.render(entity, updated);
  }

  /** Deletes the platform entity, then forgets the mapping; an entity already gone is not an error. */
  async remove<E extends IntegrationEntity>(
    entity: E,
    externalId: string,
    source: IntegrationSource,
    caller: CallerContext,
  ): Promise<DeletedEntityAnswer<E>> {
    const definition = ENTITY_OPERATIONS[entity];
    const key: MappingKey = { source, entity, externalId };
    const platformId = await this.platformIdOf(key);
    const target = definition.deleteRequest?.(platformId) ?? {
      method: 'DELETE' as const,
      path: `${definition.mainApiPath}/${platformId}`,
    };
    // Already gone in main-api: nothing of it is left to answer but its id (or, for an entity that
    // is a list, nothing).
    let deleted: unknown = Array.isArray(definition.response) ? [] : { id: platformId };
    try {
      deleted = (await this.call(source, { ...target, caller })) ?? deleted;
    } catch (error) {
      if (!(error instanceof IntegrationsError && error.status === 404)) {
        throw error;
      }
    }
    await this.mappings.forget(key);
    return this.render(entity, deleted) as DeletedEntityAnswer<E>;
  }

  /** `POST` / `DELETE /{contracts|teams}/{external_id}/users`. */
  async changeUsers<E extends IntegrationEntity.Contracts | IntegrationEntity.Teams>(
    entity: E,
    externalId: string,
    body: WithSource & { users: string[] },
    method: 'POST' | 'DELETE',
    caller: CallerContext,
  ): Promise<EntityAnswer<E>> {
    const source = body.metadata.source;
    const platformId = await this.platformIdOf({ source, entity, externalId });
    const userIds = await this.platformIdsOf(source, IntegrationEntity.Users, body.users, 'users');
    const answer = await this.call(source, {
      method,
      path: `${ENTITY_OPERATIONS[entity].mainApiPath}/${platformId}/users`,
      body: { user_ids: userIds },
      caller,
    });
    return this.render(entity, answer);
  }

  async assignPosition(
    externalId: string,
    body: WithSource & { position_id: string },
    caller: CallerContext,
  ): Promise<EntityAnswer<IntegrationEntity.Users>> {
    const source = body.metadata.source;
    const userId = await this.platformIdOf({ source, entity: IntegrationEntity.Users, externalId });
    const [positionId] = await this.platformIdsOf(
      source,
      IntegrationEntity.Positions,
      [body.position_id],
      'position_id',
    );
    const user = await this.call(source, {
      method: 'PUT',
      path: `/v1/users/${userId}`,
      body: { user_position_id: positionId },
      caller,
    });
    return this.render(IntegrationEntity.Users, user);
  }

  private async platformIdOf(key: MappingKey): Promise<number> {
    const ids = await this.mappings.platformIds(key.source, key.entity, [key.externalId]);
    const platformId = ids.get(key.externalId);
    if (platformId === undefined) {
      throw new ExternalIdNotFoundError(key.source, key.entity, key.externalId);
    }
    return platformId;
  }

  private async platformIdsOf(
    source: IntegrationSource,
    entity: IntegrationEntity,
    externalIds: string[],
    field: string,
  ): Promise<number[]> {
    const ids = await this.mappings.platformIds(source, entity, externalIds);
    const unknown = externalIds.filter((externalId) => !ids.has(externalId));
    if (unknown.length > 0) {
      throw new RequestValidationError([
        {
          field,
          validation: 'knownExternalId',
          message: `${field}: no ${entity} with external id ${unknown.map((id) => `"${id}"`).join(', ')} from ${source}`,
        },
      ]);
    }
    return externalIds.map((externalId) => ids.get(externalId) as number);
  }

  /** main-api's body: ours without `metadata` and `id`, references turned into platform ids. */
  private async translate(
    definition: Pick<EntityOperations, 'references'>,
    source: IntegrationSource,
    body: Body,
  ): Promise<Body> {
    const { metadata: _metadata, id: _id, ...fields } = body;
    for (const [field, entity] of Object.entries(definition.references)) {
      const externalId = fields[field];
      if (typeof externalId === 'string') {
        [fields[field]] = await this.platformIdsOf(source, entity, [externalId], field);
      }
    }
    return fields;
  }

  /**
   * The same create of the same external id (same body, same generation) always carries the same
   * key; a changed body or a re-creation after a delete is a new request.
   */
  private idempotencyKeyFor(key: MappingKey, generation: number, body: unknown): string {
    const digest = createHash('sha256')
      .update(
        JSON.stringify([
          this.principals.companyId(),
          key.source,
          key.entity,
          key.externalId,
          generation,
          body,
        ]),
      )
      .digest('hex');
    return `integrations-${digest}`;
  }

  /**
   * Every write to main-api, made on behalf of `origin`. main-api records the source as the origin
   * of the change it makes (`X-Change-Origin`), so the outbound webhooks do not echo the change back
   * to that source's subscriptions. main-api's refusals pass through with their status and message,
   * code ZC003 (decisions §4).
   */
  private async call(origin: IntegrationSource, request: MainApiRequest): Promise<Body> {
    const authorization = request.caller?.authorization ?? '';
    try {
      return await this.mainApi.request<Body>({
        ...request,
        headers: {
          ...request.headers,
          [CHANGE_ORIGIN_HEADER]: origin,
          [CHANGE_ORIGIN_SIGNATURE_HEADER]: signChangeOrigin(
            this.env.CHANGE_ORIGIN_KEY,
            origin,
            authorization,
          ),
        },
      });
    } catch (error) {
      throw asMainApiError(error);
    }
  }

  /**
   * main-api's answer as the entity's response DTO documents it: only its fields, date-times in ISO
   * 8601 UTC (response-shape.ts), so a field main-api adds later does not leave undocumented.
   */
  private render<E extends IntegrationEntity>(entity: E, answer: unknown): EntityAnswer<E> {
    const response = ENTITY_OPERATIONS[entity].response as Type | [Type];
    return shapeAs(Array.isArray(response) ? response[0] : response, answer) as EntityAnswer<E>;
  }
}

function duplicate(key: MappingKey): IntegrationsError {
  return new IntegrationsError(
    'DuplicateExternalIdError',
    IntegrationsErrorCode.Validation,
    422,
    `${key.entity}: external id "${key.externalId}" from ${key.source} is already mapped (or being created); ` +
      'update it with PUT, or delete it first',
  );
}
