import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { Company } from '../companies/company.entity';

/**
 * The first answer to a POST sent with an `Idempotency-Key`, kept 24 hours per caller so a retried
 * request (integrations after a timeout) gets that answer instead of creating twice (docs/spec/decisions.md §8).
 * The unique key makes two concurrent first attempts produce one winner; it holds the caller, so
 * two callers of one company using the same key never see each other's answer.
 */
@Entity({ name: 'idempotency_records' })
@Index('idempotency_records_caller_key_key', ['companyId', 'subject', 'key'], { unique: true })
// The retention pruner's question: which records are past the 24 hours?
@Index('idempotency_records_created_at_idx', ['createdAt'])
export class IdempotencyRecord {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'idempotency_records_pkey' })
  id!: string;

  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  @ManyToOne(() => Company, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'company_id', foreignKeyConstraintName: 'idempotency_records_company_id_fkey' })
  company?: Company;

  /** The caller: the token's subject, `user:<id>` or `client:<id>`. */
  @Column({ type: 'varchar', length: 30 })
  subject!: string;

  @Column({ type: 'varchar', length: 255 })
  key!: string;

  /** SHA-256 of method, path and body: the same key with another request is refused. */
  @Column({ name: 'request_hash', type: 'char', length: 64 })
  requestHash!: string;

  /** Null while the first request is still being processed. */
  @Column({ name: 'status_code', type: 'smallint', nullable: true })
  statusCode!: number | null;

  @Column({ name: 'response_body', type: 'jsonb', nullable: true })
  responseBody!: unknown;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
