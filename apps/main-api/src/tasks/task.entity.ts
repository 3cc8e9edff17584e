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
import { Project } from '../projects/project.entity';
import { User } from '../users/user.entity';

/** A unit of work on a project. */
@Entity({ name: 'tasks' })
@Index('tasks_company_project_idx', ['companyId', 'projectId'])
@Index('tasks_company_assignee_idx', ['companyId', 'assigneeId'])
@Check('tasks_status_check', `"status" IN ('nueva', 'en_proceso', 'estancada', 'finalizada')`)
export class Task {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'tasks_pkey' })
  id!: number;

  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  @ManyToOne(() => Company, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'company_id', foreignKeyConstraintName: 'tasks_company_id_fkey' })
  company?: Company;

  @Column({ name: 'project_id', type: 'integer' })
  projectId!: number;

  @ManyToOne(() => Project, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'tasks_project_id_fkey' })
  project?: Project;

  @Column({ type: 'varchar', length: 300 })
  name!: string;

  @Column({ type: 'text', default: '' })
  description!: string;

  @Column({ type: 'varchar', length: 20, default: 'nueva' })
  status!: string;

  @Column({ name: 'assignee_id', type: 'integer', nullable: true })
  assigneeId!: number | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'assignee_id', foreignKeyConstraintName: 'tasks_assignee_id_fkey' })
  assignee?: User | null;

  @Column({ type: 'date', nullable: true })
  start!: string | null;

  @Column({ type: 'date', nullable: true })
  end!: string | null;

  @Column({ name: 'estimated_time', type: 'numeric', precision: 10, scale: 2, default: 0 })
  estimatedTime!: string;

  /** Bumped by PostgreSQL on every change of the row (trigger `tasks_row_version`): the ETag's version. */
  @VersionColumn({ default: 1 })
  version!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @DeleteDateColumn({ name: 'deleted_at', type: 'timestamptz' })
  deletedAt!: Date | null;
}
