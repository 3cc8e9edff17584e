import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
  VersionColumn,
} from 'typeorm';

export const SCENARIO_STATUSES = ['draft', 'applied'] as const;
export type ScenarioStatus = (typeof SCENARIO_STATUSES)[number];

/**
 * A named what-if plan of a company (issue 39): shared by everyone in the company, with its author.
 * A draft holds a copy of the plan it was made from (the live plan, or another scenario) in the
 * `scenario_*` tables, which writes naming it change instead of the live plan. Applying it writes
 * its changes to the live plan in one transaction; it is then `applied`, its copy dropped and what it
 * changed kept in `applied_changes`.
 */
@Entity({ name: 'scenarios' })
@Check('scenarios_name_check', `char_length("name") BETWEEN 1 AND 100`)
@Check('scenarios_status_check', `"status" IN ('draft', 'applied')`)
@Index('scenarios_company_created_idx', ['companyId', 'createdAt', 'id'])
export class Scenario {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'scenarios_pkey' })
  id!: string;

  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  /** The scenario it was copied from; null: the live plan. No foreign key: that one may go first. */
  @Column({ name: 'base_scenario_id', type: 'uuid', nullable: true })
  baseScenarioId!: string | null;

  /** Who made it; null when an API client's token did. */
  @Column({ name: 'author_user_id', type: 'integer', nullable: true })
  authorUserId!: number | null;

  @Column({ type: 'varchar', length: 16, default: 'draft' })
  status!: ScenarioStatus;

  @Column({ name: 'applied_at', type: 'timestamptz', nullable: true })
  appliedAt!: Date | null;

  @Column({ name: 'applied_by_user_id', type: 'integer', nullable: true })
  appliedByUserId!: number | null;

  /** What applying it changed, by kind of change and entity (the answer of its apply). */
  @Column({ name: 'applied_changes', type: 'jsonb', nullable: true })
  appliedChanges!: unknown;

  /** Bumped by PostgreSQL on every change, and by every write into the scenario: its ETag. */
  @VersionColumn({ default: 1 })
  version!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
