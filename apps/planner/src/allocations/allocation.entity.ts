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
import { Placeholder } from '../placeholders/placeholder.entity';

export const ALLOCATION_STATUSES = ['tentative', 'confirmed'] as const;
export type AllocationStatus = (typeof ALLOCATION_STATUSES)[number];
export const ALLOCATION_MODES = ['total_hours', 'hours_per_day', 'percent_of_capacity'] as const;
export type AllocationMode = (typeof ALLOCATION_MODES)[number];

/**
 * The columns of an allocation, shared by the live plan's table (`Allocation`) and a scenario's copy
 * of it (`ScenarioAllocation`, issue 39): its key, constraints and relations are each table's own.
 */
export abstract class AllocationRecord {
  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  /** The person booked; null when a placeholder is. */
  @Column({ name: 'user_id', type: 'integer', nullable: true })
  userId!: number | null;

  /** The placeholder booked; null when a person is. */
  @Column({ name: 'placeholder_id', type: 'uuid', nullable: true })
  placeholderId!: string | null;

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

  @Column({ type: 'varchar', length: 16, default: 'confirmed' })
  status!: AllocationStatus;

  @Column({ type: 'varchar', length: 24, default: 'total_hours' })
  mode!: AllocationMode;

  @Column({ name: 'hours_per_day', type: 'numeric', precision: 5, scale: 2, nullable: true })
  hoursPerDay!: string | null;

  @Column({ type: 'numeric', precision: 5, scale: 2, nullable: true })
  percent!: string | null;

  @Column({ type: 'varchar', length: 2000, nullable: true })
  note!: string | null;

  @Column({ type: 'boolean', default: true })
  billable!: boolean;

  @Column({ name: 'task_id', type: 'integer', nullable: true })
  taskId!: number | null;

  @Column({ name: 'confirmed_by_user_id', type: 'integer', nullable: true })
  confirmedByUserId!: number | null;

  @Column({ name: 'confirmed_at', type: 'timestamptz', nullable: true })
  confirmedAt!: Date | null;

  /** Bumped by PostgreSQL on every change (enableRowVersions): the ETag's version. */
  @VersionColumn({ default: 1 })
  version!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

/**
 * Hours of one user booked on one project between two calendar days (both included). Users and
 * projects live in main-api, so they are plain ids here, never foreign keys across schemas. How it
 * books (`mode`) and its hours day by day (`allocation_days`) are the v2 ledger's (issue 37); the
 * interface's routes book `total_hours`, confirmed. A v2 allocation may book a placeholder instead
 * of a user (issue 39): exactly one of the two, which the interface's routes never see.
 */
@Entity({ name: 'allocations' })
// Two allocations of the same user on the same project may not share a day. A constraint, not a
// check in code, so two concurrent saves cannot both pass (docs/spec/decisions.md §6).
@Exclusion(
  'allocations_no_overlap',
  `USING gist ("company_id" WITH =, "user_id" WITH =, "project_id" WITH =, daterange("from_date", "to_date", '[]') WITH &&)`,
  // Deferrable, checked at each statement's end unless a transaction defers it: a scenario's apply
  // (issue 39) moves many rows at once, in any order, and checks the overlaps of the result itself.
  { deferrable: 'INITIALLY IMMEDIATE' },
)
// A placeholder is on a project once a day too; rows of people (no placeholder) are not in it.
@Exclusion(
  'allocations_placeholder_no_overlap',
  `USING gist ("company_id" WITH =, "placeholder_id" WITH =, "project_id" WITH =, daterange("from_date", "to_date", '[]') WITH &&) WHERE ("placeholder_id" IS NOT NULL)`,
  { deferrable: 'INITIALLY IMMEDIATE' },
)
@Check('allocations_assignee_check', 'num_nonnulls("user_id", "placeholder_id") = 1')
@Check('allocations_range_check', '"from_date" <= "to_date"')
@Check('allocations_hours_check', '"allocated_hours" >= 0')
@Check('allocations_status_check', `"status" IN ('tentative', 'confirmed')`)
@Check(
  'allocations_mode_check',
  `("mode" = 'total_hours' AND "hours_per_day" IS NULL AND "percent" IS NULL) OR ("mode" = 'hours_per_day' AND "hours_per_day" > 0 AND "hours_per_day" <= 24 AND "percent" IS NULL) OR ("mode" = 'percent_of_capacity' AND "percent" > 0 AND "percent" <= 100 AND "hours_per_day" IS NULL)`,
)
@Index('allocations_company_project_idx', ['companyId', 'projectId'])
@Index('allocations_company_user_range_idx', ['companyId', 'userId', 'fromDate', 'toDate'])
export class Allocation extends AllocationRecord {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'allocations_pkey' })
  id!: string;

  // RESTRICT: a placeholder with bookings cannot go (409 PlaceholderInUseError), even past a race.
  @ManyToOne(() => Placeholder, { onDelete: 'RESTRICT', nullable: true })
  @JoinColumn({
    name: 'placeholder_id',
    referencedColumnName: 'id',
    foreignKeyConstraintName: 'allocations_placeholder_fkey',
  })
  placeholder?: Placeholder | null;
}
