import type { TenantScope } from '../tenancy/tenant-scope';
import type { TenantScopes } from '../tenancy/tenant-scopes';
import type { ClaimedStreamTicket } from './event-stream-backend';

/** How long a connection holds its ticket past its last renewal (renewed every check, ≤ 30 s). */
const HOLD = "interval '75 seconds'";

// Claims of one company's tickets queue behind each other, so two connections cannot both take the
// company's last place. The lock is taken in the statement that finds the ticket's company.
const LOCK_COMPANY = `SELECT company_id, pg_advisory_xact_lock(hashtextextended('event-stream-cap:' || company_id, 0))::text
  FROM event_stream_tickets WHERE ticket_hash = $1`;

// The ticket of the hash, if it may open a stream now: within 30 s of issue (or a reconnect of a
// stream it opened), its token not expired, and no live connection holding it. Claimed in the same
// statement, so two connections presenting one ticket get it once. (A SELECT around the UPDATE, so
// a transaction's connection answers the rows alone, as the pool does.)
const CLAIM = `WITH claimed AS (
  UPDATE event_stream_tickets
     SET first_opened_at = coalesce(first_opened_at, now()), held_until = now() + ${HOLD}
   WHERE ticket_hash = $1 AND token_expires_at > now()
     AND (first_opened_at IS NOT NULL OR open_by > now())
     AND (held_until IS NULL OR held_until < now())
  RETURNING *)
SELECT * FROM claimed`;

// The company's other streams, on every replica: a live connection holds its ticket.
const HELD_BY_COMPANY = `SELECT count(*)::integer AS streams FROM event_stream_tickets
  WHERE company_id = $1 AND held_until > now() AND ticket_hash <> $2`;

/** A claimed ticket, as CLAIM answers it (the token's columns only where the service keeps tokens). */
interface ClaimedTicketRow {
  ticket_hash: string;
  company_id: number;
  subject: string;
  role_id: number;
  session_id: string | null;
  epoch: number;
  token_id: string;
  token_expires_at: Date;
  token_ciphertext?: Buffer;
  token_iv?: Buffer;
  token_tag?: Buffer;
  entities: string[] | null;
  project_ids: number[] | null;
}

/** Thrown inside the claim's transaction, so the claim is undone when the company has no room. */
class CompanyFull extends Error {}

/**
 * The statements of a service's `event_stream_tickets` table (the same columns in every service
 * that serves a change stream, as its EventStreamTicket entity maps them) and of its feed that a
 * stream makes outside any request. Each service's StreamTicketsRepository extends it with how it
 * stores a ticket and reads its own events.
 */
export abstract class EventStreamTicketsRepository {
  private readonly streams: TenantScope;

  protected constructor(protected readonly scopes: TenantScopes) {
    // A stream's request has no token: its ticket is found by its hash before there is a company.
    this.streams = scopes.acrossCompanies('event-stream');
  }

  /**
   * Holds the ticket for this connection if it may open a stream now; 'company-cap' when its company
   * already has `companyCap` streams open across every replica (each holds its ticket), in which case
   * nothing is held.
   */
  claim(ticketHash: string, companyCap: number): Promise<ClaimedStreamTicket | 'company-cap' | undefined> {
    return this.streams
      .transaction(async (unit) => {
        const [ticket] = await unit.sql.select<{ company_id: number }>(LOCK_COMPANY, [ticketHash]);
        if (!ticket) {
          return undefined;
        }
        const [claimed] = await unit.sql.execute<ClaimedTicketRow>(CLAIM, [ticketHash]);
        if (!claimed) {
          return undefined;
        }
        const [held] = await unit.sql.select<{ streams: number }>(HELD_BY_COMPANY, [
          claimed.company_id,
          ticketHash,
        ]);
        if (held.streams >= companyCap) {
          throw new CompanyFull();
        }
        return claimedTicketOf(claimed);
      })
      .catch((error: unknown) => {
        if (error instanceof CompanyFull) {
          return 'company-cap' as const;
        }
        throw error;
      });
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
}

function claimedTicketOf(row: ClaimedTicketRow): ClaimedStreamTicket {
  return {
    ticketHash: row.ticket_hash,
    companyId: row.company_id,
    subject: row.subject,
    roleId: row.role_id,
    sessionId: row.session_id,
    epoch: row.epoch,
    tokenId: row.token_id,
    tokenExpiresAt: row.token_expires_at,
    entities: row.entities,
    projectIds: row.project_ids,
    sealedToken:
      row.token_ciphertext && row.token_iv && row.token_tag
        ? { ciphertext: row.token_ciphertext, iv: row.token_iv, tag: row.token_tag }
        : null,
  };
}
