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
import { Currency, TransactionSource } from '../reference-data/reference-item.entities';

export const TRANSACTION_TYPES = ['income', 'expense', 'invoice', 'credit_note'] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

/** Money in or out for a client: income, expense, invoice or credit note. */
@Entity({ name: 'transactions' })
@Index('transactions_company_client_date_idx', ['companyId', 'clientId', 'date'])
@Check('transactions_type_check', `"type" IN ('income', 'expense', 'invoice', 'credit_note')`)
export class Transaction {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'transactions_pkey' })
  id!: number;

  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  @ManyToOne(() => Company, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'company_id', foreignKeyConstraintName: 'transactions_company_id_fkey' })
  company?: Company;

  @Column({ name: 'client_id', type: 'integer' })
  clientId!: number;

  @ManyToOne(() => Client, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'client_id', foreignKeyConstraintName: 'transactions_client_id_fkey' })
  client?: Client;

  /** 'YYYY-MM-DD'. */
  @Column({ type: 'date' })
  date!: string;

  @Column({ type: 'varchar', length: 20 })
  type!: TransactionType;

  @Column({ type: 'numeric', precision: 14, scale: 2 })
  total!: string;

  @Column({ name: 'currency_change_amount', type: 'numeric', precision: 14, scale: 2 })
  currencyChangeAmount!: string;

  @Column({ type: 'numeric', precision: 14, scale: 6 })
  exchange!: string;

  @Column({ name: 'source_id', type: 'smallint' })
  sourceId!: number;

  @ManyToOne(() => TransactionSource, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'source_id', foreignKeyConstraintName: 'transactions_source_id_fkey' })
  source?: TransactionSource;

  @Column({ name: 'currency_id', type: 'smallint' })
  currencyId!: number;

  @ManyToOne(() => Currency, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'currency_id', foreignKeyConstraintName: 'transactions_currency_id_fkey' })
  currency?: Currency;

  @Column({ name: 'receipt_number', type: 'varchar', length: 100 })
  receiptNumber!: string;

  @Column({ name: 'is_income', type: 'boolean' })
  isIncome!: boolean;

  /** Bumped by PostgreSQL on every change of the row (trigger `transactions_row_version`): the ETag's version. */
  @VersionColumn({ default: 1 })
  version!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
