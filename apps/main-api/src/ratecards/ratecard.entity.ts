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
import { Company } from '../companies/company.entity';
import { Currency } from '../reference-data/reference-item.entities';
import { RatecardPrice } from './ratecard-price.entity';

/** An hourly price list: one price per position; `hourly_rate` projects are billed with one. */
@Entity({ name: 'ratecards' })
@Index('ratecards_company_idx', ['companyId'])
export class Ratecard {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'ratecards_pkey' })
  id!: number;

  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  @ManyToOne(() => Company, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'company_id', foreignKeyConstraintName: 'ratecards_company_id_fkey' })
  company?: Company;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  /** The name of the ratecard this one was derived from (its own name when it is an original). */
  @Column({ name: 'original_name', type: 'varchar', length: 200, default: '' })
  originalName!: string;

  /** Percentage applied to the base prices when linked to them (100 = same prices). */
  @Column({ type: 'numeric', precision: 7, scale: 2, default: 100 })
  percent!: string;

  @Column({ name: 'linked_to_base_price', type: 'boolean', default: false })
  linkedToBasePrice!: boolean;

  @Column({ name: 'currency_id', type: 'smallint', default: 1 })
  currencyId!: number;

  @ManyToOne(() => Currency, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'currency_id', foreignKeyConstraintName: 'ratecards_currency_id_fkey' })
  currency?: Currency;

  @OneToMany(() => RatecardPrice, (price) => price.ratecard)
  prices?: RatecardPrice[];

  /** Bumped by PostgreSQL on every change of the row (trigger `ratecards_row_version`): the ETag's version. */
  @VersionColumn({ default: 1 })
  version!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @DeleteDateColumn({ name: 'deleted_at', type: 'timestamptz' })
  deletedAt!: Date | null;
}
