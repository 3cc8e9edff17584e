import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Allocation, type AllocationStatus } from '../allocations/allocation.entity';
import { Placeholder } from '../placeholders/placeholder.entity';

/**
 * The columns of an allocation's day but its key, shared by the live plan's table (`AllocationDay`)
 * and a scenario's copy of it (`ScenarioAllocationDay`, issue 39).
 */
export abstract class AllocationDayRecord {
  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  @Column({ name: 'user_id', type: 'integer', nullable: true })
  userId!: number | null;

  @Column({ name: 'placeholder_id', type: 'uuid', nullable: true })
  placeholderId!: string | null;

  @Column({ type: 'varchar', length: 16 })
  status!: AllocationStatus;

  @Column({ type: 'numeric', precision: 5, scale: 2 })
  hours!: string;

  /** Given by the caller (`days`), not computed: kept when the rest is planned again. */
  @Column({ type: 'boolean', default: false })
  pinned!: boolean;
}

/**
 * One day of one allocation: the hours it books that day. Written in the allocation's transaction;
 * the person (or placeholder) and status are the allocation's, copied so that what a person or a
 * placeholder is booked for on a day is one range of `allocation_days_person_idx` or
 * `allocation_days_placeholder_idx`.
 */
@Entity({ name: 'allocation_days' })
@Index('allocation_days_person_idx', ['companyId', 'userId', 'day'])
@Index('allocation_days_placeholder_idx', ['companyId', 'placeholderId', 'day'], {
  where: '"placeholder_id" IS NOT NULL',
})
@Check('allocation_days_hours_check', '"hours" >= 0 AND "hours" <= 24')
@Check('allocation_days_status_check', `"status" IN ('tentative', 'confirmed')`)
export class AllocationDay extends AllocationDayRecord {
  @PrimaryColumn({ name: 'allocation_id', type: 'uuid', primaryKeyConstraintName: 'allocation_days_pkey' })
  allocationId!: string;

  @ManyToOne(() => Allocation, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({
    name: 'allocation_id',
    referencedColumnName: 'id',
    foreignKeyConstraintName: 'allocation_days_allocation_fkey',
  })
  allocation?: Allocation;

  /** 'YYYY-MM-DD'. */
  @PrimaryColumn({ type: 'date', primaryKeyConstraintName: 'allocation_days_pkey' })
  day!: string;

  @ManyToOne(() => Placeholder, { onDelete: 'RESTRICT', nullable: true })
  @JoinColumn({
    name: 'placeholder_id',
    referencedColumnName: 'id',
    foreignKeyConstraintName: 'allocation_days_placeholder_fkey',
  })
  placeholder?: Placeholder | null;
}
