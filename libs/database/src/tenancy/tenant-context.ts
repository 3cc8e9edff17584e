import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Why a unit of work may read or write rows of more than one company. Each one is allowed by its own
 * row-level security policies, on the tables and for the commands that work needs and nothing else
 * (the migrations that create the policies list them; docs/decisions.md, "Tenancy").
 */
export type CrossCompanyPurpose =
  /** Finding whose credentials a token request presents, before there is a company. */
  | 'authentication'
  /** Deleting rows past their retention period, whatever their company. */
  | 'retention'
  /** Finding the companies with outbound webhook work, and claiming that work fairly among them. */
  | 'delivery'
  /** Finding which company an inbound webhook is for, from its source. */
  | 'webhook-intake'
  /** Creating a company and its first user and API client. */
  | 'provisioning'
  /** Telling integrations which companies have new change events (their ids only, never the events). */
  | 'feed-watch'
  /** Finding the event-stream ticket a browser presents (it has no token), before there is a company. */
  | 'event-stream';

/**
 * What every statement of a unit of work tells PostgreSQL, as transaction-local settings: the
 * company whose rows it may see and write (`app.company_id`, read by every tenant table's policy),
 * the integration a change comes from (`platform.change_origin`, read by the change-feed triggers),
 * and, for the few workers that span companies, why (`app.purpose`).
 */
export interface TenantSettings {
  companyId?: number;
  changeOrigin?: string;
  purpose?: CrossCompanyPurpose;
}

const storage = new AsyncLocalStorage<TenantSettings>();

/** The company of a unit of work; one that spans companies (a purpose) has none and refuses. */
export function companyOf(settings: TenantSettings): number {
  if (settings.companyId === undefined) {
    throw new Error(
      `this unit of work spans companies (${settings.purpose ?? 'no purpose'}): it has no company`,
    );
  }
  return settings.companyId;
}

/** Runs `work` with `settings` applied to every statement it makes through the service's pool. */
export function runWithTenantSettings<T>(settings: TenantSettings, work: () => T): T {
  return storage.run(settings, work);
}

/** The settings of the unit of work the caller is in, if any. */
export function currentTenantSettings(): TenantSettings | undefined {
  return storage.getStore();
}
