import { AsyncLocalStorage } from 'node:async_hooks';

/** The operation of a batch a request is (BatchRunner injects each one as a request of its own). */
export interface BatchItem {
  /** The batch request's id. */
  batchRequestId: string;
  index: number;
}

const items = new AsyncLocalStorage<BatchItem>();

/**
 * Runs `work` (the injection of one operation) as that operation: the quota guard does not count it
 * again (the batch was counted for all of its operations), and a batch cannot contain a batch.
 * Only code in the process can set it: no header a caller sends has this effect.
 */
export function runAsBatchItem<T>(item: BatchItem, work: () => T): T {
  return items.run(item, work);
}

/** The batch operation the current request is, if it is one. */
export function currentBatchItem(): BatchItem | undefined {
  return items.getStore();
}
