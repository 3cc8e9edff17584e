import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A browser's ticket to the planner's change stream (issue 41), as main-api's EventStreamTicket:
 * only the ticket's SHA-256 is kept; it opens a stream within 30 s of being issued, and the
 * browser's reconnects of that stream until the token expires, one connection at a time
 * (`held_until`). Unlike main-api, the planner checks a login by asking main-api with the token
 * itself (RemoteTokenStatus), so the ticket keeps the token too, encrypted (AES-256-GCM) under a key
 * derived from the ticket: without the ticket, which only the browser holds, the row does not give
 * the token away.
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

  /** The token's `sub`, role, login (`sid`), epoch and id: its principal. */
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

  /** The access token, sealed with the ticket (sealToken of @platform/database). */
  @Column({ name: 'token_ciphertext', type: 'bytea' })
  tokenCiphertext!: Buffer;

  @Column({ name: 'token_iv', type: 'bytea' })
  tokenIv!: Buffer;

  @Column({ name: 'token_tag', type: 'bytea' })
  tokenTag!: Buffer;

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
