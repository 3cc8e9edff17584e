import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { INTEGRATIONS_ENV, type IntegrationsEnv } from '../../config/integrations.env';

/** Rows removed per statement, so one run never holds a long lock on a large log. */
const BATCH = 5000;

/**
 * The delivery log keeps finished deliveries (delivered or failed) and their attempts for
 * DELIVERY_LOG_RETENTION_DAYS after their last change; pending ones are never removed. Safe on
 * every replica at once: a row is deleted by whichever gets to it.
 */
@Injectable()
export class DeliveryLogPruner {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(INTEGRATIONS_ENV) private readonly env: IntegrationsEnv,
  ) {}

  /** Answers how many deliveries were removed (their attempts go with them). */
  async prune(): Promise<number> {
    let removed = 0;
    for (;;) {
      const rows = await this.dataSource.query<{ id: string }[]>(
        `DELETE FROM webhook_deliveries WHERE id IN (
           SELECT id FROM webhook_deliveries
            WHERE status IN ('delivered', 'failed') AND updated_at < now() - make_interval(days => $1)
            LIMIT $2)
         RETURNING id`,
        [this.env.DELIVERY_LOG_RETENTION_DAYS, BATCH],
      );
      removed += rows.length;
      if (rows.length < BATCH) {
        return removed;
      }
    }
  }
}
