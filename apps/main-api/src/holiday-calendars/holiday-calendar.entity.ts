import {
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

/**
 * A set of days off a person's capacity leaves out (issue 38): a country's public holidays,
 * imported for a year from a maintained dataset, and the company's own days. People belong to a
 * calendar from a date.
 */
@Entity({ name: 'holiday_calendars' })
@Index('holiday_calendars_company_idx', ['companyId'])
export class HolidayCalendar {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'holiday_calendars_pkey' })
  id!: number;

  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  @ManyToOne(() => Company, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'company_id', foreignKeyConstraintName: 'holiday_calendars_company_id_fkey' })
  company?: Company;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  /** ISO 3166-1 alpha-2, the dataset's country an import reads (null: the company's days only). */
  @Column({ type: 'varchar', length: 2, nullable: true })
  country!: string | null;

  /** The dataset's region of the country (`BY` for Bavaria), if any. */
  @Column({ type: 'varchar', length: 10, nullable: true })
  region!: string | null;

  /** Bumped by PostgreSQL on every change of the row: the ETag's version. */
  @VersionColumn({ default: 1 })
  version!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @DeleteDateColumn({ name: 'deleted_at', type: 'timestamptz' })
  deletedAt!: Date | null;
}
