import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { Company } from '../../companies/company.entity';
import { User } from '../../users/user.entity';
import { OAuthApp } from './oauth-app.entity';

/**
 * One authorization code, stored only as its SHA-256 (the code is 256 random bits), bound to the app,
 * the redirect URI, the user and the PKCE S256 challenge. After its exchange the row keeps the
 * refresh-token family it started: that binds the login to the app (its refreshes need the app's
 * client_id) and lets a second use of the code revoke what the first one issued (RFC 6749 §4.1.2).
 */
@Entity({ name: 'authorization_codes' })
// The retention pruner's question: which codes expired long ago?
@Index('authorization_codes_expires_at_idx', ['expiresAt'])
export class AuthorizationCode {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'authorization_codes_pkey' })
  id!: string;

  @Index('authorization_codes_code_hash_key', { unique: true })
  @Column({ name: 'code_hash', type: 'char', length: 64 })
  codeHash!: string;

  @Column({ name: 'app_id', type: 'integer' })
  appId!: number;

  @ManyToOne(() => OAuthApp, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'app_id', foreignKeyConstraintName: 'authorization_codes_app_id_fkey' })
  app?: OAuthApp;

  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  @ManyToOne(() => Company, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'company_id', foreignKeyConstraintName: 'authorization_codes_company_id_fkey' })
  company?: Company;

  @Column({ name: 'user_id', type: 'integer' })
  userId!: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'authorization_codes_user_id_fkey' })
  user?: User;

  @Column({ name: 'redirect_uri', type: 'varchar', length: 2000 })
  redirectUri!: string;

  /** BASE64URL(SHA-256(code_verifier)), RFC 7636 §4.2. */
  @Column({ name: 'code_challenge', type: 'char', length: 43 })
  codeChallenge!: string;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt!: Date | null;

  /** The refresh-token family (login) the exchange started. */
  @Index('authorization_codes_family_id_key', { unique: true })
  @Column({ name: 'family_id', type: 'uuid', nullable: true })
  familyId!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
