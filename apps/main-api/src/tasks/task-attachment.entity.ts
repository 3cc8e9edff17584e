import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { Task } from './task.entity';

export const ATTACHMENT_SOURCES = ['google_drive', 'dropbox', 'onedrive'] as const;
export type AttachmentSource = (typeof ATTACHMENT_SOURCES)[number];

/** A file kept in an external cloud store, linked to a task. */
@Entity({ name: 'task_attachments' })
@Index('task_attachments_task_idx', ['companyId', 'taskId'])
@Check('task_attachments_source_check', `"source" IN ('google_drive', 'dropbox', 'onedrive')`)
export class TaskAttachment {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'task_attachments_pkey' })
  id!: number;

  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  @Column({ name: 'task_id', type: 'integer' })
  taskId!: number;

  @ManyToOne(() => Task, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'task_id', foreignKeyConstraintName: 'task_attachments_task_id_fkey' })
  task?: Task;

  @Column({ type: 'varchar', length: 20 })
  source!: AttachmentSource;

  /** The store's file name or link. */
  @Column({ type: 'varchar', length: 2000 })
  filename!: string;

  @Column({ name: 'original_name', type: 'varchar', length: 500 })
  originalName!: string;

  @Column({ type: 'bigint' })
  size!: string;

  @Column({ type: 'boolean', default: true })
  available!: boolean;

  @Column({ name: 'session_token', type: 'varchar', length: 2000, nullable: true })
  sessionToken!: string | null;

  @Column({ name: 'user_id', type: 'integer', nullable: true })
  userId!: number | null;

  @Column({ name: 'discussions_id', type: 'integer', nullable: true })
  discussionsId!: number | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
