import {
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
import { User } from '../users/user.entity';
import { HolidayCalendar } from './holiday-calendar.entity';

/**
 * A person's holiday calendar from a day on, until their next membership's first day (issue 38):
 * someone who moves from the Paris office to Munich keeps France's holidays before the move.
 */
@Entity({ name: 'user_holiday_calendars' })
// One calendar in force per person and day: one membership per first day.
@Index('user_holiday_calendars_user_from_key', ['userId', 'effectiveFrom'], { unique: true })
@Index('user_holiday_calendars_company_user_idx', ['companyId', 'userId'])
export class UserCalendarMembership {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'user_holiday_calendars_pkey' })
  id!: number;

  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  @Column({ name: 'user_id', type: 'integer' })
  userId!: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'user_holiday_calendars_user_id_fkey' })
  user?: User;

  @Column({ name: 'calendar_id', type: 'integer' })
  calendarId!: number;

  @ManyToOne(() => HolidayCalendar, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'calendar_id', foreignKeyConstraintName: 'user_holiday_calendars_calendar_id_fkey' })
  calendar?: HolidayCalendar;

  @Column({ name: 'effective_from', type: 'date' })
  effectiveFrom!: string;

  @VersionColumn({ default: 1 })
  version!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
