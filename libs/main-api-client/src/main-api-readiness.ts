import type { ReadinessCheck } from '@platform/runtime';
import { MainApiClient } from './main-api.client';

/** For `HealthModule.forRoot({ readinessChecks })`: `/health/ready` is 503 while main-api does not answer. */
export const mainApiReadinessChecks = {
  inject: [MainApiClient],
  useFactory: (client: MainApiClient): ReadinessCheck[] => [
    { name: 'main-api', check: (signal: AbortSignal) => client.ping(signal) },
  ],
};
