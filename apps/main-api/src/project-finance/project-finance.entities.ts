import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { Fee } from '../fees/fee.entity';
import { Label } from '../labels/label.entity';
import { Project } from '../projects/project.entity';
import { Currency } from '../reference-data/reference-item.entities';

/** A budget line of a project (docs/spec/interfaces.md "Project estimate"). */
@Entity({ name: 'project_estimates' })
@Index('project_estimates_company_project_idx', ['companyId', 'projectId'])
export class ProjectEstimate {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'project_estimates_pkey' })
  id!: number;

  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  @Column({ name: 'project_id', type: 'integer' })
  projectId!: number;

  @ManyToOne(() => Project, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'project_estimates_project_id_fkey' })
  project?: Project;

  @Column({ type: 'varchar', length: 300 })
  title!: string;

  @Column({ type: 'numeric', precision: 14, scale: 2 })
  cost!: string;

  @Column({ type: 'date' })
  datetime!: string;

  @Column({ name: 'currency_id', type: 'smallint', default: 1 })
  currencyId!: number;

  @ManyToOne(() => Currency, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'currency_id', foreignKeyConstraintName: 'project_estimates_currency_id_fkey' })
  currency?: Currency;

  @Column({ name: 'fee_id', type: 'integer', nullable: true })
  feeId!: number | null;

  @ManyToOne(() => Fee, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'fee_id', foreignKeyConstraintName: 'project_estimates_fee_id_fkey' })
  fee?: Fee | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}

/** Money actually spent on a project (docs/spec/interfaces.md "Project cost"); it lowers profitability. */
@Entity({ name: 'project_costs' })
@Index('project_costs_company_project_idx', ['companyId', 'projectId'])
export class ProjectCost {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'project_costs_pkey' })
  id!: number;

  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  @Column({ name: 'project_id', type: 'integer' })
  projectId!: number;

  @ManyToOne(() => Project, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'project_costs_project_id_fkey' })
  project?: Project;

  @Column({ type: 'varchar', length: 300 })
  title!: string;

  @Column({ type: 'numeric', precision: 14, scale: 2 })
  cost!: string;

  @Column({ type: 'date' })
  datetime!: string;

  @Column({ name: 'label_id', type: 'integer', nullable: true })
  labelId!: number | null;

  @ManyToOne(() => Label, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'label_id', foreignKeyConstraintName: 'project_costs_label_id_fkey' })
  label?: Label | null;

  @Column({ name: 'project_estimate_id', type: 'integer', nullable: true })
  projectEstimateId!: number | null;

  @ManyToOne(() => ProjectEstimate, { onDelete: 'SET NULL' })
  @JoinColumn({
    name: 'project_estimate_id',
    foreignKeyConstraintName: 'project_costs_project_estimate_id_fkey',
  })
  projectEstimate?: ProjectEstimate | null;

  @Column({ name: 'id_project_history', type: 'integer', nullable: true })
  idProjectHistory!: number | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
