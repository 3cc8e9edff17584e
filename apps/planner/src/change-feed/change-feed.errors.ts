import { AllocationError } from '../allocations/allocation.errors';

/** A cursor behind the feed's retention window: GET /v2/events answers 410, the stream `event: gone`. */
export const cursorExpired = (prunedThrough: string) =>
  new AllocationError(
    'CursorExpiredError',
    `Events up to cursor ${prunedThrough} are past the retention period; read again from after=0 and reconcile`,
    410,
  );
