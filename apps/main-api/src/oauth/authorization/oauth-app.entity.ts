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

/**
 * A registered public client (RFC 6749 §2.1), a browser app: no secret (token_endpoint_auth_method
 * `none`), so it is recognised by its exact redirect URIs and PKCE rather than authenticated.
 */
@Entity({ name: 'oauth_apps' })
export class OAuthApp {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'oauth_apps_pkey' })
  id!: number;

  @Index('oauth_apps_company_id_idx')
  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  @ManyToOne(() => Company, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'company_id', foreignKeyConstraintName: 'oauth_apps_company_id_fkey' })
  company?: Company;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  /** Public identifier (`app_<random>`), sent as `client_id`. */
  @Index('oauth_apps_client_id_key', { unique: true })
  @Column({ name: 'client_id', type: 'varchar', length: 64 })
  clientId!: string;

  /** Compared character for character with the request's `redirect_uri` (RFC 9700 §4.1.3). */
  @Column({ name: 'redirect_uris', type: 'text', array: true })
  redirectUris!: string[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;
}
