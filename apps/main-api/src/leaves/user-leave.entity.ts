import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Exclusion,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
  VersionColumn,
} from 'typeorm';
import { Company } from '../companies/company.entity';
import { LeaveType } from '../reference-data/reference-item.entities';
import { User } from '../users/user.entity';

/** Where a leave stands: only approved leaves count for capacity. */
export const LEAVE_STATUSES = ['requested', 'approved', 'rejected', 'cancelled'] as const;
export type LeaveStatus = (typeof LEAVE_STATUSES)[number];

/** Time off of a user; the planner removes approved leaves from capacity. */
@Entity({ name: 'user_leaves' })
// Two requested or approved leaves of one user may not share an instant: a constraint, so
// concurrent requests cannot both pass (docs/spec/interfaces.md leave rule 1); a rejected or
// cancelled leave frees its days.
@Exclusion(
  'user_leaves_no_overlap',
  `USING gist ("company_id" WITH =, "user_id" WITH =, tstzrange("start", "end", '[]') WITH &&) WHERE ("status" IN ('requested', 'approved'))`,
)
@Check('user_leaves_range_check', '"start" < "end"')
@Check('user_leaves_status_check', `"status" IN ('requested', 'approved', 'rejected', 'cancelled')`)
@Index('user_leaves_company_user_start_idx', ['companyId', 'userId', 'start'])
export class UserLeave {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'user_leaves_pkey' })
  id!: number;

  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  @ManyToOne(() => Company, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'company_id', foreignKeyConstraintName: 'user_leaves_company_id_fkey' })
  company?: Company;

  @Column({ name: 'user_id', type: 'integer' })
  userId!: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'user_leaves_user_id_fkey' })
  user?: User;

  @Column({ name: 'leave_type_id', type: 'smallint' })
  leaveTypeId!: number;

  @ManyToOne(() => LeaveType, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'leave_type_id', foreignKeyConstraintName: 'user_leaves_leave_type_id_fkey' })
  leaveType?: LeaveType;

  @Column({ type: 'timestamptz' })
  start!: Date;

  @Column({ type: 'timestamptz' })
  end!: Date;

  @Column({ name: 'all_day', type: 'boolean', default: false })
  allDay!: boolean;

  @Column({ type: 'varchar', length: 20, default: 'approved' })
  status!: LeaveStatus;

  /** Who last set the status (approved, rejected, cancelled; a manager creating it approved). */
  @Column({ name: 'decided_by_user_id', type: 'integer', nullable: true })
  decidedByUserId!: number | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({
    name: 'decided_by_user_id',
    foreignKeyConstraintName: 'user_leaves_decided_by_user_id_fkey',
  })
  decidedBy?: User;

  @Column({ name: 'decided_at', type: 'timestamptz', nullable: true })
  decidedAt!: Date | null;

  /** The request's note, or the reason a rejection gave. */
  @Column({ type: 'varchar', length: 500, nullable: true })
  note!: string | null;

  /** Bumped by PostgreSQL on every change of the row: the ETag's version. */
  @VersionColumn({ default: 1 })
  version!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
