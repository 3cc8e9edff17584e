import { Check, Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { CHANGE_FEED_NAMES_SQL, type ChangeFeedName } from './change-feed-name';

/**
 * How far the delivery workers have read a company's change feed in main-api or the planner. A worker locks the
 * row (FOR UPDATE SKIP LOCKED) while it reads a page and queues its deliveries, so one replica at a
 * time reads a company's feed and the cursor moves in the same transaction as the deliveries.
 */
@Entity({ name: 'feed_cursors' })
@Check('feed_cursors_feed_check', `"feed" IN (${CHANGE_FEED_NAMES_SQL})`)
export class FeedCursor {
  @PrimaryColumn({ name: 'company_id', type: 'integer', primaryKeyConstraintName: 'feed_cursors_pkey' })
  companyId!: number;

  @PrimaryColumn({
    type: 'varchar',
    length: 16,
    default: 'main-api',
    primaryKeyConstraintName: 'feed_cursors_pkey',
  })
  feed!: ChangeFeedName;

  /** The cursor of the last event read ("0": the start of the feed). */
  @Column({ name: 'last_cursor', type: 'bigint', default: 0 })
  lastCursor!: string;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
