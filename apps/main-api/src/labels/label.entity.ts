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
import { Company } from '../companies/company.entity';

export const LABEL_MODELS = ['project', 'user', 'task'] as const;
export type LabelModel = (typeof LABEL_MODELS)[number];

/** A coloured tag for projects, users or tasks; those store label ids. */
@Entity({ name: 'labels' })
@Index('labels_company_model_idx', ['companyId', 'model'])
@Check('labels_model_check', `"model" IN ('project', 'user', 'task')`)
export class Label {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'labels_pkey' })
  id!: number;

  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  @ManyToOne(() => Company, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'company_id', foreignKeyConstraintName: 'labels_company_id_fkey' })
  company?: Company;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  @Column({ type: 'char', length: 7, default: '#9e9e9e' })
  color!: string;

  @Column({ type: 'varchar', length: 20 })
  model!: LabelModel;

  /** Bumped by PostgreSQL on every change of the row (trigger `labels_row_version`): the ETag's version. */
  @VersionColumn({ default: 1 })
  version!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @DeleteDateColumn({ name: 'deleted_at', type: 'timestamptz' })
  deletedAt!: Date | null;
}
