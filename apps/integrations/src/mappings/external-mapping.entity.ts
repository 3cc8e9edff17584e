import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';

export type MappingState = 'pending' | 'complete';

/**
 * Links an external system's id to a platform entity of main-api. The unique key (company, source,
 * entity, external id) is what turns concurrent creates of one external id into a single winner.
 */
@Entity({ name: 'external_mappings' })
@Index('external_mappings_key', ['companyId', 'source', 'entity', 'externalId'], { unique: true })
@Index('external_mappings_platform_idx', ['companyId', 'entity', 'platformId'])
@Check('external_mappings_state_check', `"state" IN ('pending', 'complete')`)
@Check('external_mappings_platform_id_check', `"state" = 'pending' OR "platform_id" IS NOT NULL`)
export class ExternalMapping {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'external_mappings_pkey' })
  id!: string;

  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  /** `metadata.source` token (libs/contracts IntegrationSource). */
  @Column({ type: 'varchar', length: 32 })
  source!: string;

  /** Path segment of the entity: `brands`, `clients`, `user-leaves`... */
  @Column({ type: 'varchar', length: 40 })
  entity!: string;

  @Column({ name: 'external_id', type: 'varchar', length: 255 })
  externalId!: string;

  /** main-api id; null while the mapping is reserved and the entity not yet created. */
  @Column({ name: 'platform_id', type: 'integer', nullable: true })
  platformId!: number | null;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  state!: MappingState;

  /** While pending: until when the request that reserved it owns it; after that a retry takes over. */
  @Column({ name: 'lease_until', type: 'timestamptz', nullable: true })
  leaseUntil!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
