import { setMaxListeners } from 'node:events';
import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { INTEGRATIONS_ENV, type IntegrationsEnv } from '../../config/integrations.env';
import { DeliveryAttempts } from './delivery-attempts';
import { FEED_WATCHERS, type FeedWatcher } from './feed-watcher';

/** Attempts one replica makes at once. */
const MAX_IN_FLIGHT = 16;

/**
 * The outbound webhook worker of one replica, started with the application and stopped before it
 * closes its database (DELIVERY_WORKER=off leaves it off). Each change feed (main-api's, the
 * planner's) is followed by its own loop (FeedWatcher), which claims at once whatever it queued; every DELIVERY_POLL_MS due deliveries
 * are claimed (retries come due by time); each finished attempt makes room for the next one at once.
 * Replicas share the work through the database locks, never through each other.
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('DeliveryWorker');
  private readonly inFlight = new Set<Promise<void>>();
  private readonly stopping = new AbortController();
  private running = false;
  private timer?: NodeJS.Timeout;
  private turn?: Promise<void>;
  private filling?: Promise<void>;
  private following?: Promise<void[]>;

  constructor(
    @Inject(FEED_WATCHERS) private readonly watchers: FeedWatcher[],
    private readonly attempts: DeliveryAttempts,
    @Inject(INTEGRATIONS_ENV) private readonly env: IntegrationsEnv,
  ) {
    // Every attempt in flight listens to it, and every watcher.
    setMaxListeners(MAX_IN_FLIGHT + watchers.length + 1, this.stopping.signal);
  }

  onApplicationBootstrap(): void {
    if (this.env.DELIVERY_WORKER === 'on') {
      this.running = true;
      this.following = Promise.all(
        this.watchers.map((watcher) => watcher.run(this.stopping.signal, () => void this.fill())),
      );
      this.schedule(0);
    }
  }

  /** Attempts under way are abandoned (due again at once for the replicas still running). */
  async beforeApplicationShutdown(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    this.stopping.abort();
    await this.following;
    await this.turn;
    await this.filling;
    await Promise.allSettled([...this.inFlight]);
  }

  private schedule(delayMs: number): void {
    if (!this.running) {
      return;
    }
    this.timer = setTimeout(() => {
      this.turn = this.runTurn().finally(() => this.schedule(this.env.DELIVERY_POLL_MS));
    }, delayMs);
  }

  private async runTurn(): Promise<void> {
    await this.fill();
  }

  /** Claims as many due deliveries as there is room for, and starts them. One fill at a time. */
  private fill(): Promise<void> {
    this.filling ??= this.claimAndStart().finally(() => {
      this.filling = undefined;
    });
    return this.filling;
  }

  private async claimAndStart(): Promise<void> {
    if (!this.running) {
      return;
    }
    try {
      const claimed = await this.attempts.claim(MAX_IN_FLIGHT - this.inFlight.size);
      for (const attempt of claimed) {
        const running: Promise<void> = this.attempts
          .attempt(attempt, this.stopping.signal)
          .catch((error: unknown) => {
            // The lease lets another turn attempt it again.
            this.logger.error(
              { err: describe(error), delivery_id: attempt.deliveryId },
              'recording an attempt failed',
            );
          })
          .finally(() => {
            this.inFlight.delete(running);
            if (this.running) {
              void this.fill();
            }
          });
        this.inFlight.add(running);
      }
    } catch (error) {
      this.logger.error({ err: describe(error) }, 'claiming due deliveries failed');
    }
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
