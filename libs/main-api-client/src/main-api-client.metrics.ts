import { Gauge, Histogram, type Registry } from 'prom-client';
import type { BreakerState } from './circuit-breaker';

/** How a call to main-api ended, as its caller saw it (retries included). */
export type MainApiCallOutcome =
  /** 2xx. */
  | 'success'
  /** main-api answered 4xx: it is up, the call was refused. */
  | 'client_error'
  /** No usable answer before the deadline: refused connection, timeout, 5xx. */
  | 'unavailable'
  /** Not sent: the breaker is open. */
  | 'circuit_open';

const BREAKER_STATES: readonly BreakerState[] = ['closed', 'open', 'half_open'];

/**
 * The client's metrics in the service's registry: how long calls take by outcome, and which state
 * the breaker is in (read when scraped; one series per state, 1 for the current one, so
 * `main_api_client_breaker_state{state="open"} == 1` is an alert rule as it stands).
 */
export class MainApiClientMetrics {
  private readonly duration: Histogram<'method' | 'outcome'>;

  constructor(registry: Registry, breakerState: () => BreakerState) {
    this.duration = new Histogram({
      name: 'main_api_client_request_duration_seconds',
      help: 'Duration of calls to main-api (retries included), by method and outcome',
      labelNames: ['method', 'outcome'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    });
    new Gauge({
      name: 'main_api_client_breaker_state',
      help: "State of the main-api client's circuit breaker: 1 for the current state, 0 for the others",
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        const current = breakerState();
        for (const state of BREAKER_STATES) {
          this.set({ state }, state === current ? 1 : 0);
        }
      },
    });
  }

  observe(method: string, outcome: MainApiCallOutcome, seconds: number): void {
    this.duration.observe({ method, outcome }, seconds);
  }
}
