import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/**
 * One external system allowed to send webhooks for a company: the secret it signs with, and the
 * API client (of the same company) whose tokens apply its events in main-api. Both secrets are
 * sealed with INTEGRATIONS_ENCRYPTION_KEY.
 */
@Entity({ name: 'webhook_sources' })
@Index('webhook_sources_key', ['companyId', 'source'], { unique: true })
export class WebhookSource {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'webhook_sources_pkey' })
  id!: string;

  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  @Column({ type: 'varchar', length: 32 })
  source!: string;

  @Column({ name: 'signing_secret_sealed', type: 'text' })
  signingSecretSealed!: string;

  @Column({ name: 'api_key', type: 'varchar', length: 100 })
  apiKey!: string;

  @Column({ name: 'client_secret_sealed', type: 'text' })
  clientSecretSealed!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
