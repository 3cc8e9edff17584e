import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Exclusion,
  Index,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';

/**
 * Hours of one user booked on one project between two calendar days (both included). Users and
 * projects live in main-api, so they are plain ids here, never foreign keys across schemas.
 */
@Entity({ name: 'allocations' })
// Two allocations of the same user on the same project may not share a day. A constraint, not a
// check in code, so two concurrent saves cannot both pass (docs/spec/decisions.md §6).
@Exclusion(
  'allocations_no_overlap',
  `USING gist ("company_id" WITH =, "user_id" WITH =, "project_id" WITH =, daterange("from_date", "to_date", '[]') WITH &&)`,
)
@Check('allocations_range_check', '"from_date" < "to_date"')
@Check('allocations_hours_check', '"allocated_hours" > 0')
@Index('allocations_company_project_idx', ['companyId', 'projectId'])
@Index('allocations_company_user_range_idx', ['companyId', 'userId', 'fromDate', 'toDate'])
export class Allocation {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'allocations_pkey' })
  id!: string;

  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  @Column({ name: 'user_id', type: 'integer' })
  userId!: number;

  @Column({ name: 'project_id', type: 'integer' })
  projectId!: number;

  /** 'YYYY-MM-DD' (dates are parsed as strings, see @platform/database). */
  @Column({ name: 'from_date', type: 'date' })
  fromDate!: string;

  @Column({ name: 'to_date', type: 'date' })
  toDate!: string;

  @Column({ name: 'allocated_hours', type: 'numeric', precision: 10, scale: 2 })
  allocatedHours!: string;

  /** The user who made the allocation (docs/spec/interfaces.md `assignedByUserId`). */
  @Column({ name: 'assigned_by_user_id', type: 'integer' })
  assignedByUserId!: number;

  /** The allocated user's e-mail as main-api had it when the allocation was saved (never the body's). */
  @Column({ name: 'email', type: 'varchar', length: 254, nullable: true })
  email!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
