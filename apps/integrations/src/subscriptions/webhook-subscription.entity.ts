import { SUBSCRIPTION_ENTITIES } from '@platform/contracts';
import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { CHANGE_KINDS_SQL } from './change-kind';

export type SubscriptionStatus = 'active' | 'disabled';

/** What each webhook of a subscription carries: the change (`thin`), or also the entity after it. */
export const SUBSCRIPTION_PAYLOADS = ['thin', 'snapshot'] as const;
export type SubscriptionPayload = (typeof SUBSCRIPTION_PAYLOADS)[number];

const ENTITIES_SQL = SUBSCRIPTION_ENTITIES.map((entity) => `'${entity}'`).join(', ');

/**
 * An external system's wish to hear about changes in the platform: where to POST them, which
 * entities and kinds, the secret they are signed with, and the API client (role 1-2 of the same
 * company) whose tokens read main-api's change feed. Both secrets are sealed with
 * INTEGRATIONS_ENCRYPTION_KEY.
 */
@Entity({ name: 'webhook_subscriptions' })
@Index('webhook_subscriptions_key', ['companyId', 'source', 'url'], { unique: true })
// The target of the deliveries' (subscription_id, company_id) foreign key: a delivery belongs to
// its subscription's company, by construction.
@Index('webhook_subscriptions_company_key', ['id', 'companyId'], { unique: true })
@Index('webhook_subscriptions_active_idx', ['companyId'], { where: `"status" = 'active'` })
@Check('webhook_subscriptions_status_check', `"status" IN ('active', 'disabled')`)
@Check('webhook_subscriptions_disabled_check', `("status" = 'disabled') = ("disabled_at" IS NOT NULL)`)
@Check(
  'webhook_subscriptions_kinds_check',
  `cardinality("kinds") > 0 AND "kinds" <@ ARRAY[${CHANGE_KINDS_SQL}]::varchar[]`,
)
@Check('webhook_subscriptions_payload_check', `"payload" IN ('thin', 'snapshot')`)
@Check('webhook_subscriptions_entities_check', `"entities" <@ ARRAY[${ENTITIES_SQL}]::varchar[]`)
export class WebhookSubscription {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'webhook_subscriptions_pkey' })
  id!: string;

  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  /** `metadata.source` of the subscriber: changes that came from this source are not sent back to it. */
  @Column({ type: 'varchar', length: 32 })
  source!: string;

  @Column({ type: 'varchar', length: 2048 })
  url!: string;

  /** Entities wanted; empty means all. */
  @Column({ type: 'varchar', length: 40, array: true, default: () => "'{}'" })
  entities!: string[];

  @Column({ type: 'varchar', length: 16, array: true })
  kinds!: string[];

  /** Projects wanted (changes of entities that belong to one of them); empty means all changes. */
  @Column({ name: 'project_ids', type: 'integer', array: true, default: () => "'{}'" })
  projectIds!: number[];

  @Column({ type: 'varchar', length: 16, default: 'thin' })
  payload!: SubscriptionPayload;

  @Column({ name: 'signing_secret_sealed', type: 'text' })
  signingSecretSealed!: string;

  @Column({ name: 'api_key', type: 'varchar', length: 100 })
  apiKey!: string;

  @Column({ name: 'client_secret_sealed', type: 'text' })
  clientSecretSealed!: string;

  @Column({ type: 'varchar', length: 16, default: 'active' })
  status!: SubscriptionStatus;

  /** Since when every attempt has failed; cleared by a successful delivery. */
  @Column({ name: 'failing_since', type: 'timestamptz', nullable: true })
  failingSince!: Date | null;

  @Column({ name: 'disabled_at', type: 'timestamptz', nullable: true })
  disabledAt!: Date | null;

  @Column({ name: 'disabled_reason', type: 'varchar', length: 500, nullable: true })
  disabledReason!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
