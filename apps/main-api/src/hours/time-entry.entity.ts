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
import { Company } from '../companies/company.entity';
import { Position } from '../positions/position.entity';
import { Project } from '../projects/project.entity';
import { Task } from '../tasks/task.entity';
import { User } from '../users/user.entity';

export const TIME_ENTRY_STATUSES = ['draft', 'submitted', 'approved', 'rejected'] as const;
export type TimeEntryStatus = (typeof TIME_ENTRY_STATUSES)[number];

/** Hours a user logged on a project (docs/spec/decisions.md §8): they drive hours_charged and elapsed_time. */
@Entity({ name: 'time_entries' })
@Index('time_entries_company_project_position_idx', ['companyId', 'projectId', 'userPositionId'])
@Index('time_entries_company_user_date_idx', ['companyId', 'userId', 'date'])
@Index('time_entries_company_project_date_idx', ['companyId', 'projectId', 'date'])
@Index('time_entries_source_external_id_key', ['companyId', 'source', 'externalId'], {
  unique: true,
  where: '"external_id" IS NOT NULL',
})
@Check('time_entries_hours_check', '"hours" > 0 AND "hours" <= 24')
@Check('time_entries_status_check', `"status" IN ('draft', 'submitted', 'approved', 'rejected')`)
@Check('time_entries_external_id_check', '("source" IS NULL) = ("external_id" IS NULL)')
export class TimeEntry {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'time_entries_pkey' })
  id!: number;

  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  @ManyToOne(() => Company, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'company_id', foreignKeyConstraintName: 'time_entries_company_id_fkey' })
  company?: Company;

  @Column({ name: 'user_id', type: 'integer' })
  userId!: number;

  @ManyToOne(() => User, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'time_entries_user_id_fkey' })
  user?: User;

  @Column({ name: 'project_id', type: 'integer' })
  projectId!: number;

  @ManyToOne(() => Project, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'time_entries_project_id_fkey' })
  project?: Project;

  @Column({ name: 'task_id', type: 'integer', nullable: true })
  taskId!: number | null;

  @ManyToOne(() => Task, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'task_id', foreignKeyConstraintName: 'time_entries_task_id_fkey' })
  task?: Task | null;

  /** The position the hours were worked in (defaults to the user's position). */
  @Column({ name: 'user_position_id', type: 'integer', nullable: true })
  userPositionId!: number | null;

  @ManyToOne(() => Position, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'user_position_id', foreignKeyConstraintName: 'time_entries_user_position_id_fkey' })
  position?: Position | null;

  @Column({ type: 'date' })
  date!: string;

  @Column({ type: 'numeric', precision: 5, scale: 2 })
  hours!: string;

  @Column({ type: 'varchar', length: 2000, nullable: true })
  note!: string | null;

  /** Whether the hours bill to the client: the project's `billable` unless the entry says. */
  @Column({ type: 'boolean', default: true })
  billable!: boolean;

  /** The planner booking (allocation) the hours fulfil; the planner's id, not checked here. */
  @Column({ name: 'allocation_id', type: 'uuid', nullable: true })
  allocationId!: string | null;

  /** The system the entry was imported from (with `externalId`, unique per company). */
  @Column({ type: 'varchar', length: 50, nullable: true })
  source!: string | null;

  @Column({ name: 'external_id', type: 'varchar', length: 255, nullable: true })
  externalId!: string | null;

  /** In the weekly approval; a reviewed entry whose hours change is draft again (trigger `time_entries_guard`). */
  @Column({ type: 'varchar', length: 16, default: 'draft' })
  status!: TimeEntryStatus;

  @Column({ name: 'submitted_at', type: 'timestamptz', nullable: true })
  submittedAt!: Date | null;

  @Column({ name: 'reviewed_by_user_id', type: 'integer', nullable: true })
  reviewedByUserId!: number | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({
    name: 'reviewed_by_user_id',
    foreignKeyConstraintName: 'time_entries_reviewed_by_user_id_fkey',
  })
  reviewedBy?: User | null;

  @Column({ name: 'reviewed_at', type: 'timestamptz', nullable: true })
  reviewedAt!: Date | null;

  /** Why the week was rejected (or a remark on its approval). */
  @Column({ name: 'review_note', type: 'varchar', length: 500, nullable: true })
  reviewNote!: string | null;

  /** Bumped by PostgreSQL on every change of the row (trigger `time_entries_row_version`): the ETag's version. */
  @VersionColumn({ default: 1 })
  version!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  /** For lists' `updated_since` (issue 36); not in the interface's answer. */
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
