import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
  VersionColumn,
} from 'typeorm';
import { Client } from '../clients/client.entity';
import { Company } from '../companies/company.entity';
import { Currency } from '../reference-data/reference-item.entities';

export const FEE_STATUSES = ['active', 'inactive'] as const;
export type FeeStatus = (typeof FEE_STATUSES)[number];

/** A recurring retainer a client pays; projects with `income_type: fee` draw on one. */
@Entity({ name: 'fees' })
@Index('fees_company_client_idx', ['companyId', 'clientId'])
@Check('fees_status_check', `"status" IN ('active', 'inactive')`)
@Check('fees_period_check', '"start" IS NULL OR "end" IS NULL OR "start" <= "end"')
export class Fee {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'fees_pkey' })
  id!: number;

  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  @ManyToOne(() => Company, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'company_id', foreignKeyConstraintName: 'fees_company_id_fkey' })
  company?: Company;

  @Column({ name: 'client_id', type: 'integer' })
  clientId!: number;

  @ManyToOne(() => Client, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'client_id', foreignKeyConstraintName: 'fees_client_id_fkey' })
  client?: Client;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  @Column({ type: 'numeric', precision: 14, scale: 2, default: 0 })
  estimate!: string;

  @Column({ name: 'work_order', type: 'varchar', length: 100, default: '' })
  workOrder!: string;

  @Column({ type: 'varchar', length: 2000, default: '' })
  description!: string;

  /** Months between billings. */
  @Column({ type: 'smallint', default: 1 })
  frequency!: number;

  @Column({ type: 'varchar', length: 10, default: 'active' })
  status!: FeeStatus;

  /** Hours. */
  @Column({ name: 'estimated_time', type: 'numeric', precision: 10, scale: 2, default: 0 })
  estimatedTime!: string;

  @Column({ type: 'date', nullable: true })
  start!: string | null;

  @Column({ type: 'date', nullable: true })
  end!: string | null;

  @Column({ name: 'currency_id', type: 'smallint', default: 1 })
  currencyId!: number;

  @ManyToOne(() => Currency, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'currency_id', foreignKeyConstraintName: 'fees_currency_id_fkey' })
  currency?: Currency;

  /** Bumped by PostgreSQL on every change of the row (trigger `fees_row_version`): the ETag's version. */
  @VersionColumn({ default: 1 })
  version!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
