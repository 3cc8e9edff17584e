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
import { Company } from '../companies/company.entity';

/** Credentials of a machine caller (client-credentials grant). The secret is kept only as a hash. */
@Entity({ name: 'api_clients' })
@Check('api_clients_role_id_check', '"role_id" BETWEEN 1 AND 6')
export class ApiClient {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'api_clients_pkey' })
  id!: number;

  @Index('api_clients_company_id_idx')
  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  @ManyToOne(() => Company, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'company_id', foreignKeyConstraintName: 'api_clients_company_id_fkey' })
  company?: Company;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  /** Public identifier, sent as the Basic-auth user name. */
  @Index('api_clients_api_key_key', { unique: true })
  @Column({ name: 'api_key', type: 'varchar', length: 64 })
  apiKey!: string;

  @Column({ name: 'secret_hash', type: 'varchar', length: 255, select: false })
  secretHash!: string;

  @Column({ name: 'role_id', type: 'smallint', default: 1 })
  roleId!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;
}
