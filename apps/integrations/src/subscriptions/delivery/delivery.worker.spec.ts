import type { IntegrationsEnv } from '../../config/integrations.env';
import type { ClaimedAttempt, DeliveryAttempts } from './delivery-attempts';
import { DeliveryWorker } from './delivery.worker';
import type { FeedWatcher } from './feed-watcher';

function claimed(deliveryId: string): ClaimedAttempt {
  return {
    deliveryId,
    companyId: 1,
    subscriptionId: 's',
    attempt: 1,
    attemptId: 'a',
    url: 'https://hooks.example.com/',
    signingSecretSealed: 'sealed',
    payload: '{}',
  };
}

describe('DeliveryWorker', () => {
  const start = (worker: 'on' | 'off') => {
    // Follows the feed until the worker stops it.
    const watcher = {
      run: jest.fn(
        (stop: AbortSignal) =>
          new Promise<void>((resolve) => stop.addEventListener('abort', () => resolve())),
      ),
    };
    const due = [claimed('d1'), claimed('d2')];
    const signals: AbortSignal[] = [];
    const attempts = {
      claim: jest.fn((limit: number) => Promise.resolve(due.splice(0, limit))),
      attempt: jest.fn(
        (_attempt: ClaimedAttempt, signal: AbortSignal) =>
          new Promise<void>((resolve) => {
            signals.push(signal);
            signal.addEventListener('abort', () => resolve());
          }),
      ),
    };
    const instance = new DeliveryWorker(
      [watcher as unknown as FeedWatcher],
      attempts as unknown as DeliveryAttempts,
      { DELIVERY_WORKER: worker, DELIVERY_POLL_MS: 10 } as IntegrationsEnv,
    );
    instance.onApplicationBootstrap();
    return { instance, watcher, attempts, signals };
  };

  const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

  it('does nothing with DELIVERY_WORKER=off', async () => {
    const { instance, watcher, attempts } = start('off');
    await settle();

    expect(watcher.run).not.toHaveBeenCalled();
    expect(attempts.claim).not.toHaveBeenCalled();
    await instance.beforeApplicationShutdown();
  });

  it('follows the feed, starts the due attempts, and on shutdown interrupts them and stops', async () => {
    const { instance, watcher, attempts, signals } = start('on');
    await settle();

    expect(watcher.run).toHaveBeenCalledTimes(1);
    expect(attempts.attempt).toHaveBeenCalledTimes(2);
    expect(attempts.claim).toHaveBeenCalledWith(16);

    await instance.beforeApplicationShutdown();
    const claims = attempts.claim.mock.calls.length;
    await settle();

    expect(signals.every((signal) => signal.aborted)).toBe(true);
    expect(watcher.run.mock.calls[0][0].aborted).toBe(true);
    expect(attempts.claim.mock.calls.length).toBe(claims);
  });
});
