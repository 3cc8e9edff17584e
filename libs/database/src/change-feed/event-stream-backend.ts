import type { StreamedEvent } from './event-stream-hub';
import type { SealedToken } from './stream-tickets';

/**
 * Why a stream ended, as its last event (`event: end`) says. `unverified`: its login could not be
 * checked for two intervals in a row (main-api unreachable), so it ends as a request would be refused.
 */
export type StreamEndReason = 'revoked' | 'expired' | 'shutdown' | 'slow_consumer' | 'unverified';

/** Which cap refused a stream: the company's (its streams on every replica), or this replica's. */
export type StreamCap = 'company' | 'replica';

/** What a ticket keeps of the token it was issued for: its principal (for the login checks) and its end. */
export interface StreamTicketLogin {
  subject: string;
  roleId: number;
  sessionId: string | null;
  epoch: number;
  tokenId: string;
  tokenExpiresAt: Date;
}

/** What the stream carries; null: everything of the company. */
export interface StreamTicketFilters {
  entities: string[] | null;
  projectIds: number[] | null;
}

/** A ticket to store, for the request's company. */
export interface NewStreamTicket extends StreamTicketLogin, StreamTicketFilters {
  ticketHash: string;
  openBy: Date;
  /** The token itself, sealed with the ticket; null unless the server keeps tokens (`keepsToken`). */
  sealedToken: SealedToken | null;
}

/** A ticket a connection has just claimed. */
export interface ClaimedStreamTicket extends StreamTicketLogin, StreamTicketFilters {
  ticketHash: string;
  companyId: number;
  sealedToken: SealedToken | null;
}

/**
 * What a service gives its EventStreamServer beside its tickets repository: how it stores a ticket,
 * its feed (in the shape its `GET …/events` answers), and its own errors.
 */
export interface EventStreamBackend {
  /** Stores the ticket for the request's company. */
  saveTicket(ticket: NewStreamTicket): Promise<void>;
  /** The company's events after a cursor, in cursor order, each as the service's feed answers it. */
  eventsAfter(companyId: number, after: string, limit: number): Promise<StreamedEvent[]>;
  /** The service's 401 for a ticket that cannot open a stream. */
  ticketInvalid(): Error;
  /** The service's 503 for a stream past a cap; its filter answers `Retry-After: retryAfterSeconds`. */
  tooManyStreams(cap: StreamCap, retryAfterSeconds: number): Error;
  /** The feed's 410 body, the data of the `event: gone` a Last-Event-ID past retention gets. */
  goneBody(prunedThrough: string): unknown;
}
