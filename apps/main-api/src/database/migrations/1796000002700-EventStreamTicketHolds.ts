import {
  grantCrossCompanyAccess,
  revokeCrossCompanyAccess,
  type CrossCompanyAccess,
} from '@platform/database';
import type { MigrationInterface, QueryRunner } from 'typeorm';

// Tickets whose token has expired can open nothing: the retention pruner removes them.
const RETENTION: CrossCompanyAccess[] = [
  { table: 'event_stream_tickets', purpose: 'retention', commands: ['SELECT', 'LOCK', 'DELETE'] },
];

/**
 * A company's open streams, counted across replicas by the tickets their connections hold (the
 * per-company cap), read through an index of the company; and the pruning of expired tickets.
 */
export class EventStreamTicketHolds1796000002700 implements MigrationInterface {
  name = 'EventStreamTicketHolds1796000002700';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "event_stream_tickets_company_idx" ON "event_stream_tickets" ("company_id") `,
    );
    await grantCrossCompanyAccess(queryRunner, 'main_api', RETENTION);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await revokeCrossCompanyAccess(queryRunner, 'main_api', RETENTION);
    await queryRunner.query(`DROP INDEX "event_stream_tickets_company_idx"`);
  }
}
