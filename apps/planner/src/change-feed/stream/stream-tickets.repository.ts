import { Injectable } from '@nestjs/common';
import {
  RequestTenantScope,
  TenantScopes,
  type ClaimedStreamTicket,
  type NewStreamTicket,
  type SealedToken,
  type TenantScope,
} from '@platform/database';
import { MoreThan } from 'typeorm';
import { ChangeEvent } from '../change-event.entity';
import { EventStreamTicket } from './event-stream-ticket.entity';

/** How long a connection holds its ticket past its last renewal (renewed every check, ≤ 30 s). */
const HOLD = "interval '75 seconds'";

// The ticket of the hash, if it may open a stream now: within 30 s of issue (or a reconnect of a
// stream it opened), its token not expired, and no live connection holding it. Claimed in the same
// statement, so two connections presenting one ticket get it once.
const CLAIM = `UPDATE event_stream_tickets
    SET first_opened_at = coalesce(first_opened_at, now()), held_until = now() + ${HOLD}
  WHERE ticket_hash = $1 AND token_expires_at > now()
    AND (first_opened_at IS NOT NULL OR open_by > now())
    AND (held_until IS NULL OR held_until < now())
  RETURNING ticket_hash, company_id, subject, role_id, session_id, epoch, token_id, token_expires_at,
            token_ciphertext, token_iv, token_tag, entities, project_ids`;

/** A claimed ticket, as CLAIM answers it. */
interface ClaimedTicketRow {
  ticket_hash: string;
  company_id: number;
  subject: string;
  role_id: number;
  session_id: string | null;
  epoch: number;
  token_id: string;
  token_expires_at: Date;
  token_ciphertext: Buffer;
  token_iv: Buffer;
  token_tag: Buffer;
  entities: string[] | null;
  project_ids: number[] | null;
}

/** Stream tickets, and the reads of a company's planner feed a stream makes outside any request. */
@Injectable()
export class StreamTicketsRepository {
  private readonly streams: TenantScope;

  constructor(
    private readonly scope: RequestTenantScope,
    private readonly scopes: TenantScopes,
  ) {
    this.streams = scopes.acrossCompanies('event-stream');
  }

  /** A ticket of the request's company, with its token sealed. */
  async issue(ticket: NewStreamTicket & { sealedToken: SealedToken }): Promise<void> {
    await this.scope.repository(EventStreamTicket).create({
      ticketHash: ticket.ticketHash,
      subject: ticket.subject,
      roleId: ticket.roleId,
      sessionId: ticket.sessionId,
      epoch: ticket.epoch,
      tokenId: ticket.tokenId,
      tokenExpiresAt: ticket.tokenExpiresAt,
      tokenCiphertext: ticket.sealedToken.ciphertext,
      tokenIv: ticket.sealedToken.iv,
      tokenTag: ticket.sealedToken.tag,
      entities: ticket.entities,
      projectIds: ticket.projectIds,
      openBy: ticket.openBy,
      firstOpenedAt: null,
      heldUntil: null,
    });
  }

  async claim(ticketHash: string): Promise<ClaimedStreamTicket | undefined> {
    const [claimed] = await this.streams.sql.execute<ClaimedTicketRow>(
      CLAIM,
      [ticketHash],
      'event_stream_claim',
    );
    return (
      claimed && {
        ticketHash: claimed.ticket_hash,
        companyId: claimed.company_id,
        subject: claimed.subject,
        roleId: claimed.role_id,
        sessionId: claimed.session_id,
        epoch: claimed.epoch,
        tokenId: claimed.token_id,
        tokenExpiresAt: claimed.token_expires_at,
        entities: claimed.entities,
        projectIds: claimed.project_ids,
        sealedToken: { ciphertext: claimed.token_ciphertext, iv: claimed.token_iv, tag: claimed.token_tag },
      }
    );
  }

  /** The connections of these tickets live on: they keep holding them. */
  async renew(ticketHashes: string[]): Promise<void> {
    if (ticketHashes.length > 0) {
      await this.streams.sql.execute(
        `UPDATE event_stream_tickets SET held_until = now() + ${HOLD} WHERE ticket_hash = ANY($1)`,
        [ticketHashes],
        'event_stream_renew',
      );
    }
  }

  /** The connection closed: the browser's reconnect may claim the ticket again at once. */
  async release(ticketHash: string): Promise<void> {
    await this.streams.sql.execute(
      'UPDATE event_stream_tickets SET held_until = NULL WHERE ticket_hash = $1',
      [ticketHash],
      'event_stream_release',
    );
  }

  /** The company's newest cursor: where a stream without Last-Event-ID starts. */
  async latestCursor(companyId: number): Promise<string> {
    const [row] = await this.scopes
      .forCompany(companyId)
      .sql.select<{ cursor: string | null }>(
        'SELECT max(cursor)::text AS cursor FROM change_events WHERE company_id = $1',
        [companyId],
        'event_stream_latest',
      );
    return row?.cursor ?? '0';
  }

  /** The last cursor the retention pruner removed from the company's feed, if any. */
  async prunedThrough(companyId: number): Promise<string | undefined> {
    const [row] = await this.scopes
      .forCompany(companyId)
      .sql.select<{ pruned_through: string }>(
        'SELECT pruned_through::text AS pruned_through FROM change_feed_watermarks WHERE company_id = $1',
        [companyId],
        'event_stream_pruned',
      );
    return row?.pruned_through;
  }

  /** The company's events after `after`, in cursor order (the feed's read). */
  eventsAfter(companyId: number, after: string, limit: number): Promise<ChangeEvent[]> {
    return this.scopes
      .forCompany(companyId)
      .repository(ChangeEvent)
      .find({ where: { id: MoreThan(after) }, order: { id: 'ASC' }, take: limit });
  }
}
