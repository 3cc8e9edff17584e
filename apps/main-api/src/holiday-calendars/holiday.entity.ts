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
import { HolidayCalendar } from './holiday-calendar.entity';

export const HOLIDAY_SOURCES = ['manual', 'import'] as const;
export type HolidaySource = (typeof HOLIDAY_SOURCES)[number];

/** One day off of a calendar: the whole working day, or `hours_off` of it (a half day). */
@Entity({ name: 'holidays' })
// One holiday per calendar and day: what an import upserts by, and what capacity reads.
@Index('holidays_calendar_date_key', ['calendarId', 'date'], { unique: true })
@Index('holidays_company_date_idx', ['companyId', 'date'])
@Check('holidays_hours_off_check', '"hours_off" IS NULL OR ("hours_off" > 0 AND "hours_off" <= 24)')
@Check('holidays_source_check', `"source" IN ('manual', 'import')`)
export class Holiday {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'holidays_pkey' })
  id!: number;

  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  @Column({ name: 'calendar_id', type: 'integer' })
  calendarId!: number;

  @ManyToOne(() => HolidayCalendar, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'calendar_id', foreignKeyConstraintName: 'holidays_calendar_id_fkey' })
  calendar?: HolidayCalendar;

  @Column({ type: 'date' })
  date!: string;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  /** Hours off that day; null: the whole working day. */
  @Column({ name: 'hours_off', type: 'numeric', precision: 4, scale: 2, nullable: true })
  hoursOff!: string | null;

  /** `import`: written by an import of the dataset, which may replace it; `manual`: never replaced. */
  @Column({ type: 'varchar', length: 10, default: 'manual' })
  source!: HolidaySource;

  @VersionColumn({ default: 1 })
  version!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
