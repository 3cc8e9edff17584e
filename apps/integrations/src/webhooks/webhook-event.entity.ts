import { Check, Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

export type WebhookEventStatus = 'received' | 'applied' | 'failed' | 'retryable';

/**
 * A verified incoming event, stored before it is applied; its id is unique per company and source
 * for WEBHOOK_EVENT_RETENTION_DAYS (webhook-event.retention.ts).
 */
@Entity({ name: 'webhook_events' })
@Index('webhook_events_key', ['companyId', 'source', 'eventId'], { unique: true })
// The retention pruner's question: which events were received long ago?
@Index('webhook_events_received_at_idx', ['receivedAt'])
@Check('webhook_events_status_check', `"status" IN ('received', 'applied', 'failed', 'retryable')`)
export class WebhookEvent {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'webhook_events_pkey' })
  id!: string;

  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  @Column({ type: 'varchar', length: 32 })
  source!: string;

  @Column({ name: 'event_id', type: 'varchar', length: 255 })
  eventId!: string;

  @Column({ type: 'jsonb' })
  payload!: Record<string, unknown>;

  @Column({ type: 'varchar', length: 16, default: 'received' })
  status!: WebhookEventStatus;

  /** The answer given for it: replayed for a duplicate delivery. */
  @Column({ name: 'outcome_status', type: 'integer', nullable: true })
  outcomeStatus!: number | null;

  @Column({ name: 'outcome', type: 'jsonb', nullable: true })
  outcome!: Record<string, unknown> | null;

  @CreateDateColumn({ name: 'received_at', type: 'timestamptz' })
  receivedAt!: Date;

  @Column({ name: 'applied_at', type: 'timestamptz', nullable: true })
  appliedAt!: Date | null;
}
