import { Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { Client } from 'pg';

/** While not listening, a watch looks at the table again this often instead of waiting to be woken. */
export const UNHEARD_RECHECK_MS = 1000;
const RECONNECT_MIN_MS = 500;
const RECONNECT_MAX_MS = 30_000;

export interface ChangeNotificationListenerOptions {
  /** A session (LISTEN needs one): PostgreSQL directly or a session-mode pool, never transaction mode. */
  connectionString: string;
  /** The channel the service's change_events trigger NOTIFYs (enableChangeFeedWatch). */
  channel: string;
  /** Shown in pg_stat_activity. */
  applicationName: string;
}

/**
 * One dedicated connection per replica that LISTENs for appended change events (a statement trigger
 * on change_events NOTIFYs at commit, enableChangeFeedWatch). Every notification moves
 * `generation` on and wakes every watch waiting in this replica, so a replica holds one connection
 * however many long polls it has open.
 *
 * Notifications sent while the connection is down are lost: it reconnects with backoff, and until
 * it listens again the watches re-read the table every second (`listening` false); after it
 * reconnects every waiter is woken once to re-read what it may have missed.
 */
export class ChangeNotificationListener implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('ChangeNotificationListener');
  private readonly waiters = new Set<() => void>();
  private client?: Client;
  private reconnectDelayMs = RECONNECT_MIN_MS;
  private reconnectTimer?: NodeJS.Timeout;
  private stopped = false;
  private heard = 0;
  private listeningNow = false;

  constructor(private readonly options: ChangeNotificationListenerOptions) {}

  /** Moves on with every notification (and every reconnect): compare it before and after a read. */
  get generation(): number {
    return this.heard;
  }

  get listening(): boolean {
    return this.listeningNow;
  }

  /** The replica is shutting down: watches answer what they have instead of waiting. */
  get stopping(): boolean {
    return this.stopped;
  }

  onApplicationBootstrap(): void {
    // Not awaited: the service serves without it (watches then re-read every second).
    void this.connect();
  }

  /** Open watches answer at once, and the connection closes, so the replica stops promptly. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    this.wakeAll();
    await this.client?.end().catch(() => undefined);
  }

  /**
   * Resolves when the generation is no longer `seen`, after `timeoutMs`, when `abandoned` aborts (the
   * caller hung up), or at shutdown: at once when it moved already, so a notification heard between a
   * read and this call is not slept through.
   */
  changeAfter(seen: number, timeoutMs: number, abandoned?: AbortSignal): Promise<void> {
    if (this.heard !== seen || this.stopped || timeoutMs <= 0 || abandoned?.aborted) {
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        abandoned?.removeEventListener('abort', wake);
        this.waiters.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, this.listeningNow ? timeoutMs : Math.min(timeoutMs, UNHEARD_RECHECK_MS));
      abandoned?.addEventListener('abort', wake, { once: true });
      this.waiters.add(wake);
    });
  }

  private wakeAll(): void {
    this.heard += 1;
    for (const wake of [...this.waiters]) {
      wake();
    }
  }

  private async connect(): Promise<void> {
    if (this.stopped) {
      return;
    }
    const client = new Client({
      connectionString: this.options.connectionString,
      application_name: this.options.applicationName,
      // A dead server or network path is noticed within a minute instead of a TCP timeout's hours.
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    this.client = client;
    client.on('notification', () => this.wakeAll());
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${this.options.channel}`);
      this.listeningNow = true;
      this.reconnectDelayMs = RECONNECT_MIN_MS;
      // Whatever was appended while nobody listened is found by the waiters' next read.
      this.wakeAll();
    } catch (error) {
      this.lost(client, error);
    }
  }

  private lost(client: Client, error?: unknown): void {
    if (this.client !== client) {
      return;
    }
    this.client = undefined;
    this.listeningNow = false;
    client.end().catch(() => undefined);
    if (this.stopped) {
      return;
    }
    this.logger.warn(
      { err: error instanceof Error ? error.message : undefined, retry_ms: this.reconnectDelayMs },
      'not listening for change events; watches re-read the feed every second until it reconnects',
    );
    this.reconnectTimer = setTimeout(() => void this.connect(), this.reconnectDelayMs);
    this.reconnectDelayMs = Math.min(this.reconnectDelayMs * 2, RECONNECT_MAX_MS);
  }
}
