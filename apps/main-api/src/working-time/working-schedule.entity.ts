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
import { Company } from '../companies/company.entity';
import { User } from '../users/user.entity';

/**
 * A person's working week from a day on, until their next schedule's first day (issue 38): moving
 * someone to part-time from March leaves February's capacity as it was. Before the first schedule,
 * the first one holds.
 */
@Entity({ name: 'working_schedules' })
// One week in force per person and day: one schedule per first day.
@Index('working_schedules_user_from_key', ['userId', 'effectiveFrom'], { unique: true })
@Index('working_schedules_company_user_idx', ['companyId', 'userId'])
export class WorkingSchedule {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'working_schedules_pkey' })
  id!: number;

  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  @ManyToOne(() => Company, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'company_id', foreignKeyConstraintName: 'working_schedules_company_id_fkey' })
  company?: Company;

  @Column({ name: 'user_id', type: 'integer' })
  userId!: number;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'working_schedules_user_id_fkey' })
  user?: User;

  /** 'YYYY-MM-DD': the first day this week is in force. */
  @Column({ name: 'effective_from', type: 'date' })
  effectiveFrom!: string;

  @VersionColumn({ default: 1 })
  version!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
