import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { CHANGE_FEED_NAMES_SQL, type ChangeFeedName } from './change-feed-name';
import { CHANGE_KINDS_SQL } from './change-kind';
import { WebhookSubscription } from './webhook-subscription.entity';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/**
 * One change event for one subscription, with its payload frozen when the event was read: sent
 * until the receiver answers 2xx or the retry schedule runs out. Its id is the `webhook-id` of
 * every attempt, so the receiver can deduplicate.
 */
@Entity({ name: 'webhook_deliveries' })
// One delivery per event and subscription, however many replicas read the feed (a cursor is
// unique within its feed only).
@Index('webhook_deliveries_key', ['subscriptionId', 'feed', 'eventCursor'], { unique: true })
@Index('webhook_deliveries_company_key', ['id', 'companyId'], { unique: true })
// The workers' question, "what is due for this company?" (the claim takes companies in turns),
// reads only pending rows.
@Index('webhook_deliveries_due_idx', ['companyId', 'nextAttemptAt'], { where: `"status" = 'pending'` })
@Index('webhook_deliveries_log_idx', ['subscriptionId', 'createdAt'])
// The retention pruner's question: which finished deliveries last changed long ago?
@Index('webhook_deliveries_finished_idx', ['updatedAt'], { where: `"status" <> 'pending'` })
@Check('webhook_deliveries_status_check', `"status" IN ('pending', 'delivered', 'failed')`)
@Check('webhook_deliveries_feed_check', `"feed" IN (${CHANGE_FEED_NAMES_SQL})`)
@Check('webhook_deliveries_kind_check', `"kind" IN (${CHANGE_KINDS_SQL})`)
@Check('webhook_deliveries_attempts_check', `"failed_attempts" >= 0 AND "failed_attempts" <= "attempts"`)
export class WebhookDelivery {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'webhook_deliveries_pkey' })
  id!: string;

  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  @Column({ name: 'subscription_id', type: 'uuid' })
  subscriptionId!: string;

  @ManyToOne(() => WebhookSubscription, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn([
    {
      name: 'subscription_id',
      referencedColumnName: 'id',
      foreignKeyConstraintName: 'webhook_deliveries_subscription_fkey',
    },
    { name: 'company_id', referencedColumnName: 'companyId' },
  ])
  subscription?: WebhookSubscription;

  /** The change feed the event was read from. */
  @Column({ type: 'varchar', length: 16, default: 'main-api' })
  feed!: ChangeFeedName;

  /** The event's cursor in its change feed (decimal, as the feed gives it). */
  @Column({ name: 'event_cursor', type: 'bigint' })
  eventCursor!: string;

  @Column({ type: 'varchar', length: 40 })
  entity!: string;

  @Column({ type: 'varchar', length: 16 })
  kind!: string;

  /** The exact JSON text sent (json, not jsonb: the bytes signed stay the bytes stored). */
  @Column({ type: 'json' })
  payload!: Record<string, unknown>;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  status!: DeliveryStatus;

  /** Attempts started, ever (their numbers); a replay keeps counting. */
  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  /** Failed attempts since the delivery was (re)queued: the position in the retry schedule. */
  @Column({ name: 'failed_attempts', type: 'integer', default: 0 })
  failedAttempts!: number;

  /** When a worker may next claim it; while an attempt runs, the end of that attempt's lease. */
  @Column({ name: 'next_attempt_at', type: 'timestamptz', default: () => 'now()' })
  nextAttemptAt!: Date;

  @Column({ name: 'last_attempt_at', type: 'timestamptz', nullable: true })
  lastAttemptAt!: Date | null;

  @Column({ name: 'delivered_at', type: 'timestamptz', nullable: true })
  deliveredAt!: Date | null;

  @Column({ name: 'last_status_code', type: 'integer', nullable: true })
  lastStatusCode!: number | null;

  @Column({ name: 'last_error', type: 'varchar', length: 500, nullable: true })
  lastError!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
