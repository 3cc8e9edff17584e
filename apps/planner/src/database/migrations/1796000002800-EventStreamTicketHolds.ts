import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A company's open streams, counted across replicas by the tickets their connections hold (the
 * per-company cap), read through an index of the company.
 */
export class EventStreamTicketHolds1796000002800 implements MigrationInterface {
  name = 'EventStreamTicketHolds1796000002800';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "event_stream_tickets_company_idx" ON "event_stream_tickets" ("company_id") `,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "event_stream_tickets_company_idx"`);
  }
}
