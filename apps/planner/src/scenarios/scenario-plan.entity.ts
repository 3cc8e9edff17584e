import { Check, Column, Entity, Exclusion, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { AllocationRecord } from '../allocations/allocation.entity';
import { AllocationDayRecord } from '../ledger/allocation-day.entity';
import { PlaceholderRecord } from '../placeholders/placeholder.entity';
import { Scenario } from './scenario.entity';

/**
 * A scenario's copy of a placeholder, under the live one's id (`base_version`: the live version it
 * was copied at), or one made in the scenario (no `base_version`).
 */
@Entity({ name: 'scenario_placeholders' })
@Check('scenario_placeholders_name_check', `char_length("name") BETWEEN 1 AND 100`)
@Index('scenario_placeholders_company_name_idx', ['companyId', 'scenarioId', 'name', 'id'])
export class ScenarioPlaceholder extends PlaceholderRecord {
  @PrimaryColumn({
    name: 'scenario_id',
    type: 'uuid',
    primaryKeyConstraintName: 'scenario_placeholders_pkey',
  })
  scenarioId!: string;

  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'scenario_placeholders_pkey' })
  id!: string;

  @ManyToOne(() => Scenario, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({
    name: 'scenario_id',
    referencedColumnName: 'id',
    foreignKeyConstraintName: 'scenario_placeholders_scenario_fkey',
  })
  scenario?: Scenario;

  @Column({ name: 'base_version', type: 'integer', nullable: true })
  baseVersion!: number | null;
}

/**
 * A scenario's copy of an allocation, under the live one's id (`base_version` as for placeholders),
 * with the live table's rules inside the scenario: one booking of a person, or of a placeholder, on
 * a project a day.
 */
@Entity({ name: 'scenario_allocations' })
@Exclusion(
  'scenario_allocations_no_overlap',
  `USING gist ("scenario_id" WITH =, "user_id" WITH =, "project_id" WITH =, daterange("from_date", "to_date", '[]') WITH &&)`,
)
@Exclusion(
  'scenario_allocations_placeholder_no_overlap',
  `USING gist ("scenario_id" WITH =, "placeholder_id" WITH =, "project_id" WITH =, daterange("from_date", "to_date", '[]') WITH &&) WHERE ("placeholder_id" IS NOT NULL)`,
)
@Check('scenario_allocations_assignee_check', 'num_nonnulls("user_id", "placeholder_id") = 1')
@Check('scenario_allocations_range_check', '"from_date" <= "to_date"')
@Check('scenario_allocations_hours_check', '"allocated_hours" >= 0')
@Check('scenario_allocations_status_check', `"status" IN ('tentative', 'confirmed')`)
@Check(
  'scenario_allocations_mode_check',
  `("mode" = 'total_hours' AND "hours_per_day" IS NULL AND "percent" IS NULL) OR ("mode" = 'hours_per_day' AND "hours_per_day" > 0 AND "hours_per_day" <= 24 AND "percent" IS NULL) OR ("mode" = 'percent_of_capacity' AND "percent" > 0 AND "percent" <= 100 AND "hours_per_day" IS NULL)`,
)
@Index('scenario_allocations_company_user_range_idx', [
  'companyId',
  'scenarioId',
  'userId',
  'fromDate',
  'toDate',
])
export class ScenarioAllocation extends AllocationRecord {
  @PrimaryColumn({ name: 'scenario_id', type: 'uuid', primaryKeyConstraintName: 'scenario_allocations_pkey' })
  scenarioId!: string;

  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'scenario_allocations_pkey' })
  id!: string;

  @ManyToOne(() => Scenario, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({
    name: 'scenario_id',
    referencedColumnName: 'id',
    foreignKeyConstraintName: 'scenario_allocations_scenario_fkey',
  })
  scenario?: Scenario;

  // NO ACTION rather than RESTRICT: checked at the end of the statement, so discarding a scenario
  // (which cascades to both tables) never trips on the order PostgreSQL deletes them in.
  @ManyToOne(() => ScenarioPlaceholder, { onDelete: 'NO ACTION', nullable: true })
  @JoinColumn([
    {
      name: 'scenario_id',
      referencedColumnName: 'scenarioId',
      foreignKeyConstraintName: 'scenario_allocations_placeholder_fkey',
    },
    { name: 'placeholder_id', referencedColumnName: 'id' },
  ])
  placeholder?: ScenarioPlaceholder | null;

  @Column({ name: 'base_version', type: 'integer', nullable: true })
  baseVersion!: number | null;
}

/** A day of a scenario's allocation (as `allocation_days` for the live plan). */
@Entity({ name: 'scenario_allocation_days' })
@Index('scenario_allocation_days_person_idx', ['companyId', 'scenarioId', 'userId', 'day'])
@Index('scenario_allocation_days_placeholder_idx', ['companyId', 'scenarioId', 'placeholderId', 'day'], {
  where: '"placeholder_id" IS NOT NULL',
})
@Check('scenario_allocation_days_hours_check', '"hours" >= 0 AND "hours" <= 24')
@Check('scenario_allocation_days_status_check', `"status" IN ('tentative', 'confirmed')`)
export class ScenarioAllocationDay extends AllocationDayRecord {
  @PrimaryColumn({
    name: 'scenario_id',
    type: 'uuid',
    primaryKeyConstraintName: 'scenario_allocation_days_pkey',
  })
  scenarioId!: string;

  @PrimaryColumn({
    name: 'allocation_id',
    type: 'uuid',
    primaryKeyConstraintName: 'scenario_allocation_days_pkey',
  })
  allocationId!: string;

  /** 'YYYY-MM-DD'. */
  @PrimaryColumn({ type: 'date', primaryKeyConstraintName: 'scenario_allocation_days_pkey' })
  day!: string;

  @ManyToOne(() => ScenarioAllocation, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn([
    {
      name: 'scenario_id',
      referencedColumnName: 'scenarioId',
      foreignKeyConstraintName: 'scenario_allocation_days_allocation_fkey',
    },
    { name: 'allocation_id', referencedColumnName: 'id' },
  ])
  allocation?: ScenarioAllocation;
}

export const SCENARIO_ENTITY_KINDS = ['allocation', 'placeholder'] as const;
export type ScenarioEntityKind = (typeof SCENARIO_ENTITY_KINDS)[number];

/** A live allocation or placeholder the scenario deletes: applying it deletes the live one. */
@Entity({ name: 'scenario_removals' })
@Check('scenario_removals_entity_check', `"entity" IN ('allocation', 'placeholder')`)
export class ScenarioRemoval {
  @PrimaryColumn({ name: 'scenario_id', type: 'uuid', primaryKeyConstraintName: 'scenario_removals_pkey' })
  scenarioId!: string;

  @PrimaryColumn({ type: 'varchar', length: 16, primaryKeyConstraintName: 'scenario_removals_pkey' })
  entity!: ScenarioEntityKind;

  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'scenario_removals_pkey' })
  id!: string;

  @ManyToOne(() => Scenario, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({
    name: 'scenario_id',
    referencedColumnName: 'id',
    foreignKeyConstraintName: 'scenario_removals_scenario_fkey',
  })
  scenario?: Scenario;

  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  /** The live version it was copied at: applying refuses when the live one changed since. */
  @Column({ name: 'base_version', type: 'integer' })
  baseVersion!: number;
}
