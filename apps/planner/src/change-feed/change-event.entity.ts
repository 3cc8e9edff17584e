import { Check, Column, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

export const CHANGE_KINDS = ['created', 'updated', 'deleted', 'over_allocated'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** What an `availability.over_allocated` event carries: the day of the person over capacity. */
export interface OverAllocatedEventData {
  user_id: number;
  date: string;
  capacity: number;
  booked: number;
}

/**
 * One change of a planner entity, written by the `record_change` trigger in the transaction of the
 * change itself (migration AddChangeFeed1796000000600): a rolled-back change leaves no event. And
 * `availability.over_allocated`, written by a v2 write that put a day over capacity under `warn`,
 * in that write's transaction (OverAllocationEvents1796000001000).
 */
@Entity({ name: 'change_events' })
@Check('change_events_kind_check', `"kind" IN ('created', 'updated', 'deleted', 'over_allocated')`)
@Index('change_events_company_cursor_idx', ['companyId', 'id'])
@Index('change_events_occurred_at_idx', ['occurredAt'])
// The watch's question: which companies have events of transactions since a snapshot?
@Index('change_events_transaction_idx', ['transactionId'])
export class ChangeEvent {
  /** The cursor: grows in commit order within a company. A bigint, so a string here. */
  @PrimaryGeneratedColumn('identity', {
    name: 'cursor',
    type: 'bigint',
    generatedIdentity: 'ALWAYS',
    primaryKeyConstraintName: 'change_events_pkey',
  })
  id!: string;

  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  @Column({ type: 'varchar', length: 40 })
  entity!: string;

  @Column({ name: 'entity_id', type: 'uuid' })
  entityId!: string;

  @Column({ type: 'varchar', length: 20 })
  kind!: ChangeKind;

  @Column({ name: 'changed_fields', type: 'text', array: true, default: () => "'{}'" })
  changedFields!: string[];

  @Column({ name: 'project_id', type: 'integer', nullable: true })
  projectId!: number | null;

  @Column({ name: 'user_id', type: 'integer', nullable: true })
  userId!: number | null;

  /** over_allocated only: the day over capacity. */
  @Column({ type: 'jsonb', nullable: true })
  data!: OverAllocatedEventData | null;

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
