import type { IntegrationsEnv } from '../../config/integrations.env';
import type { ClaimedAttempt, DeliveryAttempts } from './delivery-attempts';
import { DeliveryWorker } from './delivery.worker';
import type { FeedFollower } from './feed-follower';

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
    const follower = { followAll: jest.fn().mockResolvedValue(0) };
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
      follower as unknown as FeedFollower,
      attempts as unknown as DeliveryAttempts,
      { DELIVERY_WORKER: worker, DELIVERY_POLL_MS: 10 } as IntegrationsEnv,
    );
    instance.onApplicationBootstrap();
    return { instance, follower, attempts, signals };
  };

  const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

  it('does nothing with DELIVERY_WORKER=off', async () => {
    const { instance, follower, attempts } = start('off');
    await settle();

    expect(follower.followAll).not.toHaveBeenCalled();
    expect(attempts.claim).not.toHaveBeenCalled();
    await instance.beforeApplicationShutdown();
  });

  it('follows the feed, starts the due attempts, and on shutdown interrupts them and stops', async () => {
    const { instance, follower, attempts, signals } = start('on');
    await settle();

    expect(follower.followAll).toHaveBeenCalled();
    expect(attempts.attempt).toHaveBeenCalledTimes(2);
    expect(attempts.claim).toHaveBeenCalledWith(16);

    await instance.beforeApplicationShutdown();
    const turns = follower.followAll.mock.calls.length;
    await settle();

    expect(signals.every((signal) => signal.aborted)).toBe(true);
    expect(follower.followAll.mock.calls.length).toBe(turns);
  });
});
