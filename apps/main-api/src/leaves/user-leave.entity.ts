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
} from 'typeorm';
import { Company } from '../companies/company.entity';
import { LeaveType } from '../reference-data/reference-item.entities';
import { User } from '../users/user.entity';

/** Time off of a user; the planner removes it from capacity. */
@Entity({ name: 'user_leaves' })
// Two leaves of one user may not share an instant: a constraint, so concurrent requests cannot
// both pass (docs/spec/interfaces.md leave rule 1).
@Exclusion(
  'user_leaves_no_overlap',
  `USING gist ("company_id" WITH =, "user_id" WITH =, tstzrange("start", "end", '[]') WITH &&)`,
)
@Check('user_leaves_range_check', '"start" < "end"')
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

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
