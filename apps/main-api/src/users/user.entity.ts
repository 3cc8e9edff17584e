import {
  Check,
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
import { Client } from '../clients/client.entity';
import { Company } from '../companies/company.entity';
import { Position } from '../positions/position.entity';

/** A person of an agency. The e-mail is the login of the password grant, so it is unique platform-wide. */
@Entity({ name: 'users' })
// Case-insensitive and only among live users: an expression index TypeORM cannot describe, so the
// migration creates it and the schema diff leaves it alone.
@Index('users_email_lower_key', { synchronize: false })
@Check('users_role_id_check', '"role_id" BETWEEN 1 AND 6')
export class User {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'users_pkey' })
  id!: number;

  @Index('users_company_id_idx')
  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  @ManyToOne(() => Company, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'company_id', foreignKeyConstraintName: 'users_company_id_fkey' })
  company?: Company;

  @Column({ type: 'varchar', length: 254 })
  email!: string;

  @Column({ name: 'first_name', type: 'varchar', length: 100 })
  firstName!: string;

  @Column({ name: 'last_name', type: 'varchar', length: 100 })
  lastName!: string;

  /** Role id (docs/spec/decisions.md §2): 1 C-Level … 6 Client. */
  @Column({ name: 'role_id', type: 'smallint' })
  roleId!: number;

  /** Position on the ratecard (unified position id); null until assigned. */
  @Column({ name: 'user_position_id', type: 'integer', nullable: true })
  userPositionId!: number | null;

  @ManyToOne(() => Position, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'user_position_id', foreignKeyConstraintName: 'users_user_position_id_fkey' })
  position?: Position | null;

  /** For role 6 (Client) users: the client whose projects they may read. */
  @Column({ name: 'client_id', type: 'integer', nullable: true })
  clientId!: number | null;

  @ManyToOne(() => Client, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'client_id', foreignKeyConstraintName: 'users_client_id_fkey' })
  client?: Client | null;

  /** URL of the avatar; empty when none. */
  @Column({ type: 'varchar', length: 500, default: '' })
  picture!: string;

  /** Hidden users stay in history but are left out of planning views. */
  @Column({ type: 'boolean', default: false })
  hidden!: boolean;

  /**
   * IANA time zone the person works in (issue 38): partial leaves are read in it. Not in the user's
   * answer (the interface's); `GET /users/{id}/calendar` shows it.
   */
  @Column({ name: 'time_zone', type: 'varchar', length: 64, default: 'UTC' })
  timeZone!: string;

  /** Label ids (GET /categories/labels-model?model=user). */
  @Column({ type: 'integer', array: true, default: () => "'{}'" })
  labels!: number[];

  /** scrypt hash; null for a user who cannot log in with a password. */
  @Column({ name: 'password_hash', type: 'varchar', length: 255, nullable: true, select: false })
  passwordHash!: string | null;

  /** Bumped by PostgreSQL on every change of the row (trigger `users_row_version`): the ETag's version. */
  @VersionColumn({ default: 1 })
  version!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @DeleteDateColumn({ name: 'deleted_at', type: 'timestamptz' })
  deletedAt!: Date | null;
}
