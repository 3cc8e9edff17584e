import {
  Column,
  CreateDateColumn,
  DeleteDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  OneToMany,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
  VersionColumn,
} from 'typeorm';
import { Client } from '../clients/client.entity';
import { Company } from '../companies/company.entity';
import { Currency } from '../reference-data/reference-item.entities';
import { ContractMember } from './contract-member.entity';

/** An agreement with a client (scope, period, currency); projects with `income_type: contract` use one. */
@Entity({ name: 'contracts' })
@Index('contracts_company_client_idx', ['companyId', 'clientId'])
export class Contract {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'contracts_pkey' })
  id!: number;

  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  @ManyToOne(() => Company, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'company_id', foreignKeyConstraintName: 'contracts_company_id_fkey' })
  company?: Company;

  @Column({ name: 'client_id', type: 'integer' })
  clientId!: number;

  @ManyToOne(() => Client, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'client_id', foreignKeyConstraintName: 'contracts_client_id_fkey' })
  client?: Client;

  @Column({ name: 'currency_id', type: 'smallint', default: 1 })
  currencyId!: number;

  @ManyToOne(() => Currency, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'currency_id', foreignKeyConstraintName: 'contracts_currency_id_fkey' })
  currency?: Currency;

  @Column({ name: 'user_positions_header_id', type: 'integer', nullable: true })
  userPositionsHeaderId!: number | null;

  /** Free-form data external systems attach (ids, links). */
  @Column({ name: 'json_integrations', type: 'jsonb', default: () => "'{}'" })
  jsonIntegrations!: Record<string, unknown>;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  @Column({ type: 'varchar', length: 50, default: '' })
  type!: string;

  @Column({ type: 'varchar', length: 50, default: '' })
  source!: string;

  @Column({ type: 'varchar', length: 30, default: 'active' })
  status!: string;

  @Column({ type: 'varchar', length: 30, default: '' })
  frequency!: string;

  @Column({ type: 'varchar', length: 2000, default: '' })
  url!: string;

  @Column({ name: 'url_name', type: 'varchar', length: 200, default: '' })
  urlName!: string;

  @Column({ type: 'timestamptz', nullable: true })
  start!: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  end!: Date | null;

  @OneToMany(() => ContractMember, (member) => member.contract)
  members?: ContractMember[];

  /** Bumped by PostgreSQL on every change of the row (trigger `contracts_row_version`): the ETag's version. */
  @VersionColumn({ default: 1 })
  version!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @DeleteDateColumn({ name: 'deleted_at', type: 'timestamptz' })
  deletedAt!: Date | null;
}
