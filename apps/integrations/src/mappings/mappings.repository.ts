import { Inject, Injectable } from '@nestjs/common';
import type { ChangeFeedEntity, IntegrationEntity, IntegrationSource } from '@platform/contracts';
import { RequestTenantScope, type TenantScope } from '@platform/database';
import { ExternalMapping } from './external-mapping.entity';

/** What a create reserved: the row and the generation of its external id. */
export interface Reservation {
  mappingId: string;
  generation: number;
}

export interface MappingKey {
  source: IntegrationSource;
  entity: IntegrationEntity;
  externalId: string;
}

/** How long a create owns its reservation; after that a retry of the same external id takes over. */
const LEASE_SECONDS = 30;

/**
 * The mappings of external ids to platform entities, and the mapping table's concurrency rules in SQL: the unique key (company, source, entity, external
 * id) makes one create win a race; a pending row is owned for a lease, so a create that crashed
 * between main-api and completion is taken over by the next attempt instead of blocking it forever.
 * Every statement runs in the request's scope (row-level security) and also names its company.
 */
@Injectable()
export class MappingsRepository {
  constructor(@Inject(RequestTenantScope) private readonly scope: TenantScope) {}

  /** The same rules in another scope: a worker's, for one company at a time. */
  withScope(scope: TenantScope): MappingsRepository {
    return new MappingsRepository(scope);
  }

  /** The mapping of an external id, in whatever state it is. */
  async find(key: MappingKey): Promise<ExternalMapping | undefined> {
    const [mapping] = await this.scope.repository(ExternalMapping).find({
      where: { source: key.source, entity: key.entity, externalId: key.externalId },
      take: 1,
    });
    return mapping;
  }

  /** Reserves the external id, or answers undefined when it is taken (complete, or another create in flight). */
  async reserve(key: MappingKey): Promise<Reservation | undefined> {
    const companyId = this.scope.companyId();
    const rows = await this.scope.sql.execute<{ id: string; generation: number | null }>(
      `INSERT INTO external_mappings (company_id, source, entity, external_id, state, lease_until)
       VALUES ($1, $2, $3, $4, 'pending', now() + make_interval(secs => $5))
       ON CONFLICT (company_id, source, entity, external_id) DO UPDATE
         SET lease_until = EXCLUDED.lease_until, updated_at = now()
         WHERE external_mappings.state = 'pending' AND external_mappings.lease_until < now()
       RETURNING id,
         (SELECT generation FROM external_id_generations g
           WHERE g.company_id = $1 AND g.source = $2 AND g.entity = $3 AND g.external_id = $4) AS generation`,
      [companyId, key.source, key.entity, key.externalId, LEASE_SECONDS],
    );
    const [row] = rows;
    return row ? { mappingId: row.id, generation: row.generation ?? 0 } : undefined;
  }

  async complete(reservation: Reservation, platformId: number): Promise<void> {
    await this.scope.sql.execute(
      `UPDATE external_mappings SET state = 'complete', platform_id = $3, lease_until = NULL, updated_at = now()
        WHERE id = $1 AND company_id = $2 AND state = 'pending'`,
      [reservation.mappingId, this.scope.companyId(), platformId],
    );
  }

  /** Gives the external id back: main-api refused the create, or could not be reached. */
  async release(reservation: Reservation): Promise<void> {
    await this.scope.sql.execute(
      `DELETE FROM external_mappings WHERE id = $1 AND company_id = $2 AND state = 'pending'`,
      [reservation.mappingId, this.scope.companyId()],
    );
  }

  /** Platform ids of complete mappings, by external id. */
  async platformIds(
    source: IntegrationSource,
    entity: IntegrationEntity,
    externalIds: readonly string[],
  ): Promise<Map<string, number>> {
    const rows = await this.scope.sql.select<{ external_id: string; platform_id: number }>(
      `SELECT external_id, platform_id FROM external_mappings
        WHERE company_id = $1 AND source = $2 AND entity = $3 AND external_id = ANY($4) AND state = 'complete'`,
      [this.scope.companyId(), source, entity, [...new Set(externalIds)]],
    );
    return new Map(rows.map((row) => [row.external_id, row.platform_id]));
  }

  /**
   * External ids of platform entities under the given sources (complete mappings), keyed by
   * `externalIdKey(source, entity, platformId)`; when several external ids map to one entity, the
   * first in order.
   */
  async externalIds(
    sources: readonly IntegrationSource[],
    entities: readonly { entity: ChangeFeedEntity; platformId: number }[],
  ): Promise<Map<string, string>> {
    if (sources.length === 0 || entities.length === 0) {
      return new Map();
    }
    const rows = await this.scope.sql.select<{
      source: IntegrationSource;
      entity: ChangeFeedEntity;
      platform_id: number;
      external_id: string;
    }>(
      `SELECT DISTINCT ON (source, entity, platform_id) source, entity, platform_id, external_id
         FROM external_mappings
        WHERE company_id = $1 AND state = 'complete' AND source = ANY($2)
          AND (entity, platform_id) IN (SELECT * FROM unnest($3::varchar[], $4::int[]))
        ORDER BY source, entity, platform_id, external_id`,
      [
        this.scope.companyId(),
        [...new Set(sources)],
        entities.map((entry) => entry.entity),
        entities.map((entry) => entry.platformId),
      ],
    );
    return new Map(
      rows.map((row) => [externalIdKey(row.source, row.entity, row.platform_id), row.external_id]),
    );
  }

  /** Forgets the mapping of a deleted entity, counting the deletion (one transaction). */
  async forget(key: MappingKey): Promise<void> {
    const companyId = this.scope.companyId();
    await this.scope.transaction(async (unit) => {
      await unit.sql.execute(
        `DELETE FROM external_mappings
          WHERE company_id = $1 AND source = $2 AND entity = $3 AND external_id = $4 AND state = 'complete'`,
        [companyId, key.source, key.entity, key.externalId],
      );
      await unit.sql.execute(
        `INSERT INTO external_id_generations (company_id, source, entity, external_id, generation)
         VALUES ($1, $2, $3, $4, 1)
         ON CONFLICT (company_id, source, entity, external_id)
           DO UPDATE SET generation = external_id_generations.generation + 1`,
        [companyId, key.source, key.entity, key.externalId],
      );
    });
  }
}

export function externalIdKey(source: string, entity: string, platformId: number): string {
  return `${source} ${entity} ${platformId}`;
}
