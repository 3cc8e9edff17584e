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
} from 'typeorm';
import { Company } from '../companies/company.entity';
import { User } from '../users/user.entity';
import { WorkingSchedule } from './working-schedule.entity';

/** One weekday of one of a user's working weeks (a schedule); the planner derives capacity from these. */
@Entity({ name: 'working_time_entries' })
@Index('working_time_entries_schedule_day_key', ['scheduleId', 'dayOfWeek'], { unique: true })
@Index('working_time_entries_company_idx', ['companyId'])
@Check('working_time_entries_day_check', '"day_of_week" BETWEEN 0 AND 6')
@Check('working_time_entries_hours_check', '"daily_hours" BETWEEN 0 AND 24 AND "break_time" BETWEEN 0 AND 24')
@Check('working_time_entries_span_check', '"start_at" < "end_at"')
export class WorkingTimeEntry {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'working_time_entries_pkey' })
  id!: number;

  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  @ManyToOne(() => Company, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'company_id', foreignKeyConstraintName: 'working_time_entries_company_id_fkey' })
  company?: Company;

  @Column({ name: 'user_id', type: 'integer' })
  userId!: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'working_time_entries_user_id_fkey' })
  user?: User;

  @Column({ name: 'schedule_id', type: 'integer' })
  scheduleId!: number;

  @ManyToOne(() => WorkingSchedule, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'schedule_id', foreignKeyConstraintName: 'working_time_entries_schedule_id_fkey' })
  schedule?: WorkingSchedule;

  /** 0 = Sunday … 6 = Saturday. */
  @Column({ name: 'day_of_week', type: 'smallint' })
  dayOfWeek!: number;

  @Column({ name: 'daily_hours', type: 'numeric', precision: 4, scale: 2 })
  dailyHours!: string;

  /** 'HH:mm:ss'. */
  @Column({ name: 'start_at', type: 'time' })
  startAt!: string;

  @Column({ name: 'end_at', type: 'time' })
  endAt!: string;

  @Column({ name: 'break_time', type: 'numeric', precision: 4, scale: 2, default: 0 })
  breakTime!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
