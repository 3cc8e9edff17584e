import { HttpException, HttpStatus } from '@nestjs/common';

/**
 * 409: an atomic batch in which at least one operation failed; nothing was saved. The service's
 * error body carries `results`, each operation's own answer (PlatformExceptionFilter).
 */
export class BatchFailedError extends HttpException {
  constructor(
    readonly results: readonly unknown[],
    failed: number,
  ) {
    super(
      `${failed} of ${results.length} operations failed; the batch is atomic, so nothing was saved`,
      HttpStatus.CONFLICT,
    );
    this.name = 'BatchFailedError';
  }
}
