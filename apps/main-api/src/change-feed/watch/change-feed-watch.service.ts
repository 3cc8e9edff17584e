import { Injectable } from '@nestjs/common';
import { ChangeFeedRepository } from '../change-feed.repository';
import type { ChangeFeedWatchDto } from '../dto/change-feed-watch.dto';
import { ChangeFeedListener } from './change-feed-listener';

/**
 * Which companies have change events committed after a position (issue 24): the one question
 * integrations asks at rest, instead of reading every subscribing company's feed every second.
 *
 * The position is a PostgreSQL snapshot, not a cursor. Cursors are drawn before commit, so a
 * transaction can commit cursor N after another company's N+1 was already reported: "after cursor
 * N+1" would miss it for good. A snapshot says exactly which transactions a read saw; every event is
 * either in a transaction visible to it (reported by that read or an earlier one, or by the reset
 * that started the consumer) or in one that is not, which the next read with that position reports
 * once it has committed. Each event row carries its transaction (`transaction_id`, indexed), and
 * every transaction below the snapshot's xmin is visible to it, so the read scans only the
 * transactions since then.
 */
@Injectable()
export class ChangeFeedWatchService {
  constructor(
    private readonly feed: ChangeFeedRepository,
    private readonly listener: ChangeFeedListener,
  ) {}

  /**
   * Answers at once when there is something to report (or no position), otherwise when a commit
   * appends events (woken by the listener) or after `waitSeconds` with no companies. `abandoned`
   * (the caller hung up, e.g. an integrations replica stopping) ends the wait.
   */
  async watch(
    after: string | undefined,
    waitSeconds: number,
    abandoned?: AbortSignal,
  ): Promise<ChangeFeedWatchDto> {
    const deadline = Date.now() + waitSeconds * 1000;
    for (;;) {
      const seen = this.listener.generation;
      const answer = await this.changedSince(after);
      if (answer.reset || answer.companies.length > 0 || Date.now() >= deadline) {
        return answer;
      }
      // Woken by a commit, or a second passed while the listener is not listening: read again.
      await this.listener.changeAfter(seen, deadline - Date.now(), abandoned);
      if (this.listener.stopping || abandoned?.aborted) {
        // The replica is closing (its pool may be closed already), or nobody waits for the answer.
        return { position: answer.position, reset: false, companies: [] };
      }
    }
  }

  private async changedSince(after: string | undefined): Promise<ChangeFeedWatchDto> {
    const answer = await this.feed.changedSince(after);
    // A position from the future (a restored or replaced database) reports nothing: start again.
    return answer.reset ? { ...answer, companies: [] } : answer;
  }
}
