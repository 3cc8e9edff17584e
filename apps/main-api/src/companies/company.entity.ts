import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** The tenant: every row of every schema carries a company id. */
@Entity({ name: 'companies' })
export class Company {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'companies_pkey' })
  id!: number;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  /** Reference currency id (decisions §9); 1 = USD. */
  @Column({ name: 'base_currency_id', type: 'smallint', default: 1 })
  baseCurrencyId!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
