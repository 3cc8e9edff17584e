import { CircuitBreaker } from './circuit-breaker';

describe('CircuitBreaker', () => {
  let clock: number;
  let breaker: CircuitBreaker;

  beforeEach(() => {
    clock = 1_000;
    breaker = new CircuitBreaker({ failureThreshold: 3, cooldownMs: 500, now: () => clock });
  });

  const fail = (times: number) => {
    for (let i = 0; i < times; i += 1) {
      expect(breaker.tryAcquire()).toBe(true);
      breaker.recordFailure();
    }
  };

  it('stays closed below the threshold, and a success forgets earlier failures', () => {
    fail(2);
    breaker.recordSuccess();
    fail(2);

    expect(breaker.isOpen).toBe(false);
    expect(breaker.tryAcquire()).toBe(true);
  });

  it('opens after the threshold of consecutive failures and refuses until the cooldown ends', () => {
    fail(3);

    expect(breaker.isOpen).toBe(true);
    expect(breaker.tryAcquire()).toBe(false);
    clock += 499;
    expect(breaker.tryAcquire()).toBe(false);
  });

  it('lets exactly one probe through after the cooldown; its success closes the circuit', () => {
    fail(3);
    clock += 500;

    expect(breaker.tryAcquire()).toBe(true);
    expect(breaker.tryAcquire()).toBe(false);
    breaker.recordSuccess();
    expect(breaker.tryAcquire()).toBe(true);
    expect(breaker.isOpen).toBe(false);
  });

  it('opens again for a whole cooldown when the probe fails', () => {
    fail(3);
    clock += 500;
    expect(breaker.tryAcquire()).toBe(true);

    breaker.recordFailure();

    expect(breaker.tryAcquire()).toBe(false);
    clock += 500;
    expect(breaker.tryAcquire()).toBe(true);
  });

  it('reports its state for metrics: closed, open through the cooldown, half_open while one call probes', () => {
    expect(breaker.reportedState).toBe('closed');
    fail(3);
    expect(breaker.reportedState).toBe('open');
    clock += 500;
    // Still open until a call takes the probe.
    expect(breaker.reportedState).toBe('open');
    expect(breaker.tryAcquire()).toBe(true);
    expect(breaker.reportedState).toBe('half_open');
    breaker.recordFailure();
    expect(breaker.reportedState).toBe('open');
    clock += 500;
    expect(breaker.tryAcquire()).toBe(true);
    breaker.recordSuccess();
    expect(breaker.reportedState).toBe('closed');
  });
});
