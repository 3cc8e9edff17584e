import { Injectable } from '@nestjs/common';
import { EventStreamTicketsRepository, RequestTenantScope, TenantScopes } from '@platform/database';
import { MoreThan } from 'typeorm';
import { ChangeEvent } from '../change-event.entity';
import { EventStreamTicket } from './event-stream-ticket.entity';

/**
 * main-api's stream tickets (the shared claim, renewal and release of EventStreamTicketsRepository),
 * and the reads of its feed a stream makes outside any request.
 */
@Injectable()
export class StreamTicketsRepository extends EventStreamTicketsRepository {
  constructor(
    private readonly scope: RequestTenantScope,
    scopes: TenantScopes,
  ) {
    super(scopes);
  }

  /** A ticket of the request's company. */
  async issue(ticket: Omit<EventStreamTicket, 'companyId' | 'createdAt' | 'company'>): Promise<void> {
    await this.scope.repository(EventStreamTicket).create(ticket);
  }

  /** The company's events after `after`, in cursor order (the feed's read). */
  eventsAfter(companyId: number, after: string, limit: number): Promise<ChangeEvent[]> {
    return this.scopes
      .forCompany(companyId)
      .repository(ChangeEvent)
      .find({ where: { id: MoreThan(after) }, order: { id: 'ASC' }, take: limit });
  }
}
