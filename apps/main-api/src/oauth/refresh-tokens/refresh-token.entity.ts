import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { ApiClient } from '../../api-clients/api-client.entity';
import { Company } from '../../companies/company.entity';
import { User } from '../../users/user.entity';

/**
 * One refresh token, stored only as its SHA-256 (the token itself is 256 random bits, so a fast hash
 * is enough). Tokens of one login form a family: using a token spends it and issues the next one;
 * presenting a spent token revokes the whole family (reuse detection).
 */
@Entity({ name: 'refresh_tokens' })
@Check('refresh_tokens_one_subject_check', '("user_id" IS NULL) <> ("api_client_id" IS NULL)')
@Index('refresh_tokens_family_idx', ['familyId'])
// The retention pruner's question: which logins ended long enough ago?
@Index('refresh_tokens_family_expires_at_idx', ['familyExpiresAt'])
export class RefreshToken {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'refresh_tokens_pkey' })
  id!: string;

  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  @ManyToOne(() => Company, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'company_id', foreignKeyConstraintName: 'refresh_tokens_company_id_fkey' })
  company?: Company;

  @Column({ name: 'family_id', type: 'uuid' })
  familyId!: string;

  @Index('refresh_tokens_token_hash_key', { unique: true })
  @Column({ name: 'token_hash', type: 'char', length: 64 })
  tokenHash!: string;

  @Column({ name: 'user_id', type: 'integer', nullable: true })
  userId!: number | null;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'refresh_tokens_user_id_fkey' })
  user?: User;

  @Column({ name: 'api_client_id', type: 'integer', nullable: true })
  apiClientId!: number | null;

  @ManyToOne(() => ApiClient, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'api_client_id', foreignKeyConstraintName: 'refresh_tokens_api_client_id_fkey' })
  apiClient?: ApiClient;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  /** When the family ends, however often it rotates (RFC 9700 §4.14.2). */
  @Column({ name: 'family_expires_at', type: 'timestamptz' })
  familyExpiresAt!: Date;

  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt!: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
