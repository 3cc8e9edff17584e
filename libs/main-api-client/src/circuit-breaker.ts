export interface CircuitBreakerOptions {
  /** Consecutive failed calls that open the circuit. */
  failureThreshold: number;
  /** How long an open circuit refuses calls before letting one probe through. */
  cooldownMs: number;
  /** Injected for tests. */
  now?: () => number;
}

/** The breaker's state as reported: `half_open` while one call probes a main-api that was failing. */
export type BreakerState = 'closed' | 'open' | 'half_open';

type State = { kind: 'closed'; failures: number } | { kind: 'open'; until: number } | { kind: 'probing' };

/**
 * Classic three-state breaker. While main-api is down every request would otherwise wait for its
 * own deadline and retries; an open circuit answers at once, which keeps the caller's 503 fast and
 * spares a recovering main-api a thundering herd. After the cooldown one call probes: success closes
 * the circuit, failure opens it again. In memory on purpose: each replica learns for itself.
 */
export class CircuitBreaker {
  private state: State = { kind: 'closed', failures: 0 };
  private readonly now: () => number;

  constructor(private readonly options: CircuitBreakerOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Whether a call may go out now. A `true` during recovery makes that call the probe. */
  tryAcquire(): boolean {
    switch (this.state.kind) {
      case 'closed':
        return true;
      case 'probing':
        return false;
      case 'open':
        if (this.now() < this.state.until) {
          return false;
        }
        this.state = { kind: 'probing' };
        return true;
    }
  }

  recordSuccess(): void {
    this.state = { kind: 'closed', failures: 0 };
  }

  recordFailure(): void {
    const failures = this.state.kind === 'closed' ? this.state.failures + 1 : this.options.failureThreshold;
    this.state =
      failures >= this.options.failureThreshold
        ? { kind: 'open', until: this.now() + this.options.cooldownMs }
        : { kind: 'closed', failures };
  }

  /** For metrics: the state as operators name it. */
  get reportedState(): BreakerState {
    switch (this.state.kind) {
      case 'closed':
        return 'closed';
      case 'open':
        return 'open';
      case 'probing':
        return 'half_open';
    }
  }

  get isOpen(): boolean {
    return this.state.kind !== 'closed';
  }
}
