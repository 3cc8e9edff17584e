import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * Fixed-window failure counters of the token endpoints. In Postgres, not in memory, so every replica
 * counts against the same limit. Keyed by IP or client, not by company: the caller is not yet known.
 */
@Entity({ name: 'rate_limit_buckets' })
// The retention pruner's question: which windows closed long ago?
@Index('rate_limit_buckets_window_ends_at_idx', ['windowEndsAt'])
export class RateLimitBucket {
  @PrimaryColumn({ type: 'varchar', length: 300, primaryKeyConstraintName: 'rate_limit_buckets_pkey' })
  key!: string;

  @Column({ name: 'window_ends_at', type: 'timestamptz' })
  windowEndsAt!: Date;

  /** Failed attempts in the window. */
  @Column({ type: 'integer' })
  hits!: number;

  /** Past the limit: no attempt is checked before then (a back-off that doubles per failure). */
  @Column({ name: 'blocked_until', type: 'timestamptz', nullable: true })
  blockedUntil!: Date | null;
}
