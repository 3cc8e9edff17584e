import {
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
import { Company } from '../companies/company.entity';

/** A family of positions (Creative, Accounts, Strategy...). */
@Entity({ name: 'position_categories' })
@Index('position_categories_company_idx', ['companyId'])
export class PositionCategory {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'position_categories_pkey' })
  id!: number;

  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  @ManyToOne(() => Company, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'company_id', foreignKeyConstraintName: 'position_categories_company_id_fkey' })
  company?: Company;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  /** Bumped by PostgreSQL on every change of the row (trigger `position_categories_row_version`): the ETag's version. */
  @VersionColumn({ default: 1 })
  version!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @DeleteDateColumn({ name: 'deleted_at', type: 'timestamptz' })
  deletedAt!: Date | null;
}
