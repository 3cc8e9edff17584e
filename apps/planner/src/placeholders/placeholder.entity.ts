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

/**
 * The columns of a placeholder but its key, shared by the live plan's table (`Placeholder`) and a
 * scenario's copy of it (`ScenarioPlaceholder`, issue 39).
 */
export abstract class PlaceholderRecord {
  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  @Column({ name: 'position_id', type: 'integer', nullable: true })
  positionId!: number | null;

  @Column({ name: 'category_id', type: 'integer', nullable: true })
  categoryId!: number | null;

  /** The project it was made for, if any; its allocations may be on any project. */
  @Column({ name: 'project_id', type: 'integer', nullable: true })
  projectId!: number | null;

  /** User labels (skills) the person who fills it should carry. */
  @Column({ name: 'label_ids', type: 'integer', array: true, default: () => "'{}'" })
  labelIds!: number[];

  /** Bumped by PostgreSQL on every change of the row (enableRowVersions): the ETag's version. */
  @VersionColumn({ default: 1 })
  version!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

/**
 * A role to staff before knowing who (issue 39): "a senior designer" booked on a pipeline project.
 * Allocations book exactly one of a person or a placeholder. Position, category, project and labels
 * are main-api's, so they are plain ids here (checked with main-api when written), never foreign keys
 * across schemas.
 */
@Entity({ name: 'placeholders' })
@Check('placeholders_name_check', `char_length("name") BETWEEN 1 AND 100`)
// The list's order (name, then id) is one range of this index per company.
@Index('placeholders_company_name_idx', ['companyId', 'name', 'id'])
@Index('placeholders_company_project_idx', ['companyId', 'projectId'])
export class Placeholder extends PlaceholderRecord {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'placeholders_pkey' })
  id!: string;
}
