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
import { PositionCategory } from './position-category.entity';

/**
 * A role people hold (Art Director, Copywriter...). Its id is the one "unified position id" used
 * by users, ratecards and project staffing alike.
 */
@Entity({ name: 'positions' })
@Index('positions_company_category_idx', ['companyId', 'categoryId'])
export class Position {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'positions_pkey' })
  id!: number;

  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  @ManyToOne(() => Company, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'company_id', foreignKeyConstraintName: 'positions_company_id_fkey' })
  company?: Company;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  @Column({ name: 'category_id', type: 'integer', nullable: true })
  categoryId!: number | null;

  @ManyToOne(() => PositionCategory, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'category_id', foreignKeyConstraintName: 'positions_category_id_fkey' })
  category?: PositionCategory | null;

  /** Bumped by PostgreSQL on every change of the row (trigger `positions_row_version`): the ETag's version. */
  @VersionColumn({ default: 1 })
  version!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @DeleteDateColumn({ name: 'deleted_at', type: 'timestamptz' })
  deletedAt!: Date | null;
}
