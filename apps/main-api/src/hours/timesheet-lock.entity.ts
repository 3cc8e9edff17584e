import {
  Column,
  Entity,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  UpdateDateColumn,
  VersionColumn,
} from 'typeorm';
import { Company } from '../companies/company.entity';
import { User } from '../users/user.entity';

/**
 * A company's period lock (issue 40): no time entry dated on or before `lockedUntil` is written. The
 * rule is the database's (trigger `time_entries_guard`), so every route and batch honours it.
 */
@Entity({ name: 'timesheet_locks' })
export class TimesheetLock {
  @PrimaryColumn({ name: 'company_id', type: 'integer', primaryKeyConstraintName: 'timesheet_locks_pkey' })
  companyId!: number;

  @ManyToOne(() => Company, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'company_id', foreignKeyConstraintName: 'timesheet_locks_company_id_fkey' })
  company?: Company;

  @Column({ name: 'locked_until', type: 'date' })
  lockedUntil!: string;

  @Column({ name: 'updated_by_user_id', type: 'integer', nullable: true })
  updatedByUserId!: number | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({
    name: 'updated_by_user_id',
    foreignKeyConstraintName: 'timesheet_locks_updated_by_user_id_fkey',
  })
  updatedBy?: User | null;

  @VersionColumn({ default: 1 })
  version!: number;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
