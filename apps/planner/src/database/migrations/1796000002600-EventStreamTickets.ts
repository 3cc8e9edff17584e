import { enableRowLevelSecurity, type RowLevelSecurityPlan } from '@platform/database';
import type { MigrationInterface, QueryRunner } from 'typeorm';

const PLAN: RowLevelSecurityPlan = {
  schema: 'planner',
  runtimeRole: 'planner_runtime',
  tenantTables: ['event_stream_tickets'],
  crossCompany: [
    // The stream's request has no token: its ticket is found by its hash before there is a company.
    { table: 'event_stream_tickets', purpose: 'event-stream', commands: ['SELECT', 'UPDATE', 'DELETE'] },
    // Tickets whose token has expired can open nothing: the retention pruner removes them.
    { table: 'event_stream_tickets', purpose: 'retention', commands: ['SELECT', 'LOCK', 'DELETE'] },
  ],
};

/**
 * Tickets that open the planner's change stream for a browser (issue 41; EventStreamTicket says
 * how), as main-api's EventStreamTickets1796000002500, with the token sealed beside the claims.
 */
export class EventStreamTickets1796000002600 implements MigrationInterface {
  name = 'EventStreamTickets1796000002600';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "event_stream_tickets" ("ticket_hash" character(64) NOT NULL, "company_id" integer NOT NULL, "subject" character varying(64) NOT NULL, "role_id" smallint NOT NULL, "session_id" character varying(64), "epoch" integer NOT NULL, "token_id" character varying(64) NOT NULL, "token_expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "token_ciphertext" bytea NOT NULL, "token_iv" bytea NOT NULL, "token_tag" bytea NOT NULL, "entities" text array, "project_ids" integer array, "open_by" TIMESTAMP WITH TIME ZONE NOT NULL, "first_opened_at" TIMESTAMP WITH TIME ZONE, "held_until" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "event_stream_tickets_pkey" PRIMARY KEY ("ticket_hash"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "event_stream_tickets_expiry_idx" ON "event_stream_tickets" ("token_expires_at") `,
    );
    await enableRowLevelSecurity(queryRunner, PLAN);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "event_stream_tickets"`);
  }
}
