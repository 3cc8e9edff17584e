import { Check, Column, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

export const CHANGE_KINDS = ['created', 'updated', 'deleted'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/**
 * One change of an entity the integrations service handles, written by database triggers in the
 * transaction of the change itself (transactional outbox): a rolled-back change leaves no event, and
 * no code path can change a row without its event. See the AddChangeFeed migration.
 */
@Entity({ name: 'change_events' })
@Check('change_events_kind_check', `"kind" IN ('created', 'updated', 'deleted')`)
@Index('change_events_company_cursor_idx', ['companyId', 'id'])
@Index('change_events_occurred_at_idx', ['occurredAt'])
@Index('change_events_transaction_idx', ['transactionId'])
export class ChangeEvent {
  /**
   * The cursor: increases with commit order within a company (the triggers serialise a company's
   * writers). A bigint, so a string here.
   */
  @PrimaryGeneratedColumn('identity', {
    name: 'cursor',
    type: 'bigint',
    generatedIdentity: 'ALWAYS',
    primaryKeyConstraintName: 'change_events_pkey',
  })
  id!: string;

  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  /** A CHANGE_FEED_ENTITIES value (libs/contracts). */
  @Column({ type: 'varchar', length: 40 })
  entity!: string;

  /** The platform id; for working-time, the user's. */
  @Column({ name: 'entity_id', type: 'integer' })
  entityId!: number;

  @Column({ type: 'varchar', length: 10 })
  kind!: ChangeKind;

  @Column({ name: 'changed_fields', type: 'text', array: true, default: () => "'{}'" })
  changedFields!: string[];

  /** The project the change belongs to: a project's own id, a task's, time entry's, cost's or estimate's project. */
  @Column({ name: 'project_id', type: 'integer', nullable: true })
  projectId!: number | null;

  /** The integration source the change came in from (X-Change-Origin), for loop prevention. */
  @Column({ type: 'varchar', length: 40, nullable: true })
  origin!: string | null;

  /** The writing transaction's id: changes of one entity in one transaction merge into one event. */
  @Column({ name: 'transaction_id', type: 'bigint' })
  transactionId!: string;

  @Column({ name: 'occurred_at', type: 'timestamptz', default: () => 'now()' })
  occurredAt!: Date;
}

/** Per company, the highest cursor the retention job removed: older cursors can no longer be served. */
@Entity({ name: 'change_feed_watermarks' })
export class ChangeFeedWatermark {
  @PrimaryColumn({
    name: 'company_id',
    type: 'integer',
    primaryKeyConstraintName: 'change_feed_watermarks_pkey',
  })
  companyId!: number;

  @Column({ name: 'pruned_through', type: 'bigint' })
  prunedThrough!: string;
}
