import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * How many times an external id's entity has been deleted. It is part of the idempotency key of a
 * create, so creating an external id again after deleting it is a new request to main-api rather
 * than a replay of the first creation.
 */
@Entity({ name: 'external_id_generations' })
@Index('external_id_generations_key', ['companyId', 'source', 'entity', 'externalId'], { unique: true })
export class ExternalIdGeneration {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'external_id_generations_pkey' })
  id!: string;

  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  @Column({ type: 'varchar', length: 32 })
  source!: string;

  @Column({ type: 'varchar', length: 40 })
  entity!: string;

  @Column({ name: 'external_id', type: 'varchar', length: 255 })
  externalId!: string;

  @Column({ type: 'integer', default: 0 })
  generation!: number;
}
