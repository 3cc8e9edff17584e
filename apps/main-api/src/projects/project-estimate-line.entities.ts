import {
  Column,
  DeleteDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { PositionCategory } from '../positions/position-category.entity';
import { Position } from '../positions/position.entity';
import { Project } from './project.entity';

/** Estimated hours of one position on a project (`usersPositionsProject`). */
@Entity({ name: 'project_positions' })
@Index('project_positions_project_position_key', ['projectId', 'positionId'], { unique: true })
export class ProjectPosition {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'project_positions_pkey' })
  id!: number;

  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  @Column({ name: 'project_id', type: 'integer' })
  projectId!: number;

  @ManyToOne(() => Project, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'project_positions_project_id_fkey' })
  project?: Project;

  /** The unified position id. */
  @Column({ name: 'position_id', type: 'integer' })
  positionId!: number;

  @ManyToOne(() => Position, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'position_id', foreignKeyConstraintName: 'project_positions_position_id_fkey' })
  position?: Position;

  @Column({ name: 'estimated_hours', type: 'numeric', precision: 12, scale: 2, default: 0 })
  estimatedHours!: string;

  @DeleteDateColumn({ name: 'deleted_at', type: 'timestamptz' })
  deletedAt!: Date | null;
}

/** Estimated hours of one position category on a project (`categoriesProject`). */
@Entity({ name: 'project_categories' })
@Index('project_categories_project_category_key', ['projectId', 'categoryId'], { unique: true })
export class ProjectCategory {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'project_categories_pkey' })
  id!: number;

  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  @Column({ name: 'project_id', type: 'integer' })
  projectId!: number;

  @ManyToOne(() => Project, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'project_categories_project_id_fkey' })
  project?: Project;

  @Column({ name: 'category_id', type: 'integer' })
  categoryId!: number;

  @ManyToOne(() => PositionCategory, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'category_id', foreignKeyConstraintName: 'project_categories_category_id_fkey' })
  category?: PositionCategory;

  @Column({ name: 'estimated_hours', type: 'numeric', precision: 12, scale: 2, default: 0 })
  estimatedHours!: string;

  @DeleteDateColumn({ name: 'deleted_at', type: 'timestamptz' })
  deletedAt!: Date | null;
}
