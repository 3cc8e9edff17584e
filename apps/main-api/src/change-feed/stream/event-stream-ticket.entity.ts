import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Company } from '../../companies/company.entity';

/**
 * A browser's ticket to the change stream (issue 41): `EventSource` sends no headers, so the page
 * trades its bearer token for a ticket in the stream's URL. Only the ticket's SHA-256 is kept. It
 * opens a stream within 30 s of being issued; the browser's own reconnects of that stream (the same
 * URL, with `Last-Event-ID`) are let in until the token it was issued for expires, one connection
 * at a time (`held_until`, renewed while the connection lives). It carries what the token said, so
 * the stream checks the login behind it for revocation as a request would.
 */
@Entity({ name: 'event_stream_tickets' })
@Index('event_stream_tickets_expiry_idx', ['tokenExpiresAt'])
@Index('event_stream_tickets_company_idx', ['companyId'])
export class EventStreamTicket {
  @PrimaryColumn({
    name: 'ticket_hash',
    type: 'char',
    length: 64,
    primaryKeyConstraintName: 'event_stream_tickets_pkey',
  })
  ticketHash!: string;

  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  @ManyToOne(() => Company, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'company_id', foreignKeyConstraintName: 'event_stream_tickets_company_id_fkey' })
  company?: Company;

  /** The token's `sub`, role, login (`sid`), epoch and id: its principal, for the revocation check. */
  @Column({ type: 'varchar', length: 64 })
  subject!: string;

  @Column({ name: 'role_id', type: 'smallint' })
  roleId!: number;

  @Column({ name: 'session_id', type: 'varchar', length: 64, nullable: true })
  sessionId!: string | null;

  @Column({ type: 'integer' })
  epoch!: number;

  @Column({ name: 'token_id', type: 'varchar', length: 64 })
  tokenId!: string;

  @Column({ name: 'token_expires_at', type: 'timestamptz' })
  tokenExpiresAt!: Date;

  /** Null: every entity kind; else only these. */
  @Column({ type: 'text', array: true, nullable: true })
  entities!: string[] | null;

  @Column({ name: 'project_ids', type: 'integer', array: true, nullable: true })
  projectIds!: number[] | null;

  /** The stream must be opened before this (30 s after issue). */
  @Column({ name: 'open_by', type: 'timestamptz' })
  openBy!: Date;

  @Column({ name: 'first_opened_at', type: 'timestamptz', nullable: true })
  firstOpenedAt!: Date | null;

  /** A connection holds the ticket until then (renewed while it lives, cleared when it closes). */
  @Column({ name: 'held_until', type: 'timestamptz', nullable: true })
  heldUntil!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
