import {
  Column,
  CreateDateColumn,
  Entity,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { Currency } from '../reference-data/reference-item.entities';

/** The tenant: every row of every schema carries a company id. */
@Entity({ name: 'companies' })
export class Company {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'companies_pkey' })
  id!: number;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  /** Reference currency id (docs/spec/decisions.md §9); 1 = USD. */
  @Column({ name: 'base_currency_id', type: 'smallint', default: 1 })
  baseCurrencyId!: number;

  @ManyToOne(() => Currency, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'base_currency_id', foreignKeyConstraintName: 'companies_base_currency_id_fkey' })
  baseCurrency?: Currency;

  /** Whether a person's own leave waits for a manager's approval (issue 38); off: it counts at once. */
  @Column({ name: 'leave_approval_required', type: 'boolean', default: false })
  leaveApprovalRequired!: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
