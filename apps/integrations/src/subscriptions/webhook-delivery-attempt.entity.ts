import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { WebhookDelivery } from './webhook-delivery.entity';

/**
 * One HTTP attempt of a delivery, recorded when a worker claims it (so no two workers can hold the
 * same attempt number) and completed with the receiver's answer.
 */
@Entity({ name: 'webhook_delivery_attempts' })
@Index('webhook_delivery_attempts_key', ['deliveryId', 'attempt'], { unique: true })
// Attempts under way: what the claim counts against the per-company and per-host caps.
@Index('webhook_delivery_attempts_open_idx', ['deliveryId'], { where: `"finished_at" IS NULL` })
@Check('webhook_delivery_attempts_attempt_check', `"attempt" >= 1`)
export class WebhookDeliveryAttempt {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'webhook_delivery_attempts_pkey' })
  id!: string;

  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  @Column({ name: 'delivery_id', type: 'uuid' })
  deliveryId!: string;

  @ManyToOne(() => WebhookDelivery, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn([
    {
      name: 'delivery_id',
      referencedColumnName: 'id',
      foreignKeyConstraintName: 'webhook_delivery_attempts_delivery_fkey',
    },
    { name: 'company_id', referencedColumnName: 'companyId' },
  ])
  delivery?: WebhookDelivery;

  @Column({ type: 'integer' })
  attempt!: number;

  @Column({ name: 'started_at', type: 'timestamptz', default: () => 'now()' })
  startedAt!: Date;

  /** Null while the attempt runs. */
  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt!: Date | null;

  @Column({ name: 'status_code', type: 'integer', nullable: true })
  statusCode!: number | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  error!: string | null;

  @Column({ name: 'duration_ms', type: 'integer', nullable: true })
  durationMs!: number | null;
}
