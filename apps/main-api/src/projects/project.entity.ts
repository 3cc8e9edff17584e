import {
  Check,
  Column,
  CreateDateColumn,
  DeleteDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
  VersionColumn,
} from 'typeorm';
import { Brand } from '../brands/brand.entity';
import { Client } from '../clients/client.entity';
import { Company } from '../companies/company.entity';
import { Contract } from '../contracts/contract.entity';
import { Fee } from '../fees/fee.entity';
import { Product } from '../products/product.entity';
import { Ratecard } from '../ratecards/ratecard.entity';
import { User } from '../users/user.entity';

export const INCOME_TYPES = ['fee', 'one_time', 'hourly_rate', 'contract'] as const;
export type IncomeType = (typeof INCOME_TYPES)[number];

/** A piece of client work with its budget, estimation and income model. */
@Entity({ name: 'projects' })
@Index('projects_company_client_idx', ['companyId', 'clientId'])
@Index('projects_company_status_idx', ['companyId', 'status'])
@Index('projects_company_pm_idx', ['companyId', 'pmId'])
// Trigram index for the case-insensitive name search; an expression TypeORM cannot describe, so the
// migration creates it and the schema diff leaves it alone.
@Index('projects_name_trgm_idx', { synchronize: false })
@Check('projects_status_check', `"status" IN ('active', 'finished', 'suspended')`)
@Check('projects_health_check', '"health" BETWEEN 1 AND 4')
@Check(
  'projects_income_type_check',
  `"income_type" IS NULL OR "income_type" IN ('fee', 'one_time', 'hourly_rate', 'contract')`,
)
@Check('projects_one_estimation_mode_check', 'NOT ("estimated_by_position" AND "estimation_by_categories")')
export class Project {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'projects_pkey' })
  id!: number;

  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  @ManyToOne(() => Company, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'company_id', foreignKeyConstraintName: 'projects_company_id_fkey' })
  company?: Company;

  @Column({ name: 'client_id', type: 'integer' })
  clientId!: number;

  @ManyToOne(() => Client, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'client_id', foreignKeyConstraintName: 'projects_client_id_fkey' })
  client?: Client;

  @Column({ name: 'pm_id', type: 'integer', nullable: true })
  pmId!: number | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'pm_id', foreignKeyConstraintName: 'projects_pm_id_fkey' })
  pm?: User | null;

  @Column({ name: 'created_by', type: 'integer', nullable: true })
  createdBy!: number | null;

  @Column({ name: 'template_id', type: 'integer', nullable: true })
  templateId!: number | null;

  @Column({ name: 'brand_id', type: 'integer', nullable: true })
  brandId!: number | null;

  @ManyToOne(() => Brand, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'brand_id', foreignKeyConstraintName: 'projects_brand_id_fkey' })
  brand?: Brand | null;

  @Column({ name: 'product_id', type: 'integer', nullable: true })
  productId!: number | null;

  @ManyToOne(() => Product, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'product_id', foreignKeyConstraintName: 'projects_product_id_fkey' })
  product?: Product | null;

  @Column({ name: 'fee_id', type: 'integer', nullable: true })
  feeId!: number | null;

  @ManyToOne(() => Fee, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'fee_id', foreignKeyConstraintName: 'projects_fee_id_fkey' })
  fee?: Fee | null;

  @Column({ name: 'contract_id', type: 'integer', nullable: true })
  contractId!: number | null;

  @ManyToOne(() => Contract, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'contract_id', foreignKeyConstraintName: 'projects_contract_id_fkey' })
  contract?: Contract | null;

  /** The assigned ratecard (`ratecard_id` on input is an alias). */
  @Column({ name: 'user_positions_header_id', type: 'integer', nullable: true })
  userPositionsHeaderId!: number | null;

  @ManyToOne(() => Ratecard, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'user_positions_header_id', foreignKeyConstraintName: 'projects_ratecard_id_fkey' })
  ratecard?: Ratecard | null;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  @Column({ type: 'text', default: '' })
  brief!: string;

  @Column({ type: 'smallint', default: 1 })
  health!: number;

  @Column({ type: 'varchar', length: 20, default: 'active' })
  status!: string;

  @Column({ type: 'date', nullable: true })
  start!: string | null;

  @Column({ type: 'date', nullable: true })
  end!: string | null;

  /** Total estimated hours (the default estimation mode). */
  @Column({ name: 'estimated_time', type: 'numeric', precision: 12, scale: 2, default: 0 })
  estimatedTime!: string;

  @Column({ type: 'boolean', default: false })
  archived!: boolean;

  @Column({ type: 'boolean', default: true })
  billable!: boolean;

  @Column({ name: 'income_type', type: 'varchar', length: 20, nullable: true })
  incomeType!: IncomeType | null;

  /** The fixed monetary value of a `one_time` project. */
  @Column({ type: 'numeric', precision: 14, scale: 2, nullable: true })
  estimated!: string | null;

  @Column({ type: 'integer', array: true, default: () => "'{}'" })
  labels!: number[];

  @Column({ name: 'estimated_by_position', type: 'boolean', default: false })
  estimatedByPosition!: boolean;

  @Column({ name: 'estimation_by_categories', type: 'boolean', default: false })
  estimationByCategories!: boolean;

  @Column({ name: 'estimated_by_hourly_rates', type: 'boolean', default: false })
  estimatedByHourlyRates!: boolean;

  @Column({ type: 'numeric', precision: 14, scale: 6, nullable: true })
  exchange!: string | null;

  @Column({ name: 'currency_change_amount', type: 'numeric', precision: 14, scale: 2, nullable: true })
  currencyChangeAmount!: string | null;

  /** Bumped by PostgreSQL on every change of the row (trigger `projects_row_version`): the ETag's version. */
  @VersionColumn({ default: 1 })
  version!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @DeleteDateColumn({ name: 'deleted_at', type: 'timestamptz' })
  deletedAt!: Date | null;
}

/** A project's own columns, without the related rows: what its named SQL reads (`ProjectReadsRepository`). */
export type ProjectColumns = Omit<
  Project,
  'company' | 'client' | 'pm' | 'brand' | 'product' | 'fee' | 'contract' | 'ratecard'
>;
