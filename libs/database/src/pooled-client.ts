import { Client, type ClientConfig } from 'pg';

/**
 * pg's Client with a last-resort `error` listener, for the pool. pg-pool hands a released client to
 * the next waiter before that waiter listens for errors (TypeORM listens a microtask later), and when
 * PostgreSQL ends a backend (restart, failover, `pg_terminate_backend`) its error can arrive in the
 * same socket read as the previous query's last message: with no listener at that instant, Node
 * throws and the process dies (platform e2e "survives PostgreSQL killing its connections"). The
 * error still reaches the query in flight, and pg-pool drops the client when it is released, so
 * ignoring it here loses nothing.
 */
export class PooledClient extends Client {
  constructor(config?: string | ClientConfig) {
    super(config);
    this.on('error', () => undefined);
  }
}
