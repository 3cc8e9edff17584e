import { Injectable } from '@nestjs/common';
import {
  EventStreamTicketsRepository,
  RequestTenantScope,
  TenantScopes,
  type NewStreamTicket,
  type SealedToken,
} from '@platform/database';
import { MoreThan } from 'typeorm';
import { ChangeEvent } from '../change-event.entity';
import { EventStreamTicket } from './event-stream-ticket.entity';

/**
 * The planner's stream tickets (the shared claim, renewal and release of
 * EventStreamTicketsRepository), and the reads of its feed a stream makes outside any request.
 */
@Injectable()
export class StreamTicketsRepository extends EventStreamTicketsRepository {
  constructor(
    private readonly scope: RequestTenantScope,
    scopes: TenantScopes,
  ) {
    super(scopes);
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

  /** The company's events after `after`, in cursor order (the feed's read). */
  eventsAfter(companyId: number, after: string, limit: number): Promise<ChangeEvent[]> {
    return this.scopes
      .forCompany(companyId)
      .repository(ChangeEvent)
      .find({ where: { id: MoreThan(after) }, order: { id: 'ASC' }, take: limit });
  }
}
