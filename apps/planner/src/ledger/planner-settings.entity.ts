import { Check, Column, Entity, PrimaryColumn, UpdateDateColumn, VersionColumn } from 'typeorm';

export const CAPACITY_POLICIES = ['reject', 'warn', 'allow'] as const;
export type CapacityPolicy = (typeof CAPACITY_POLICIES)[number];

/** A company's planning settings; a company without a row has the defaults. */
@Entity({ name: 'planner_settings' })
@Check('planner_settings_policy_check', `"capacity_policy" IN ('reject', 'warn', 'allow')`)
export class PlannerSettings {
  @PrimaryColumn({ name: 'company_id', type: 'integer', primaryKeyConstraintName: 'planner_settings_pkey' })
  companyId!: number;

  /** What a booking that puts a day of a person over capacity does: refused, warned of, or allowed. */
  @Column({ name: 'capacity_policy', type: 'varchar', length: 8, default: 'warn' })
  capacityPolicy!: CapacityPolicy;

  /** Whether tentative work counts against capacity (confirmed work always does). */
  @Column({ name: 'count_tentative', type: 'boolean', default: false })
  countTentative!: boolean;

  /** Bumped by PostgreSQL on every change: the ETag's version (a company without a row has 1). */
  @VersionColumn({ default: 1 })
  version!: number;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
