import { Expose } from 'class-transformer';
import { IsUrl } from 'class-validator';
import { BaseServiceEnv, IntegerSetting } from '@platform/runtime';

/** Environment of a service that calls main-api (planner, integrations). */
export class MainApiConsumerEnv extends BaseServiceEnv {
  @Expose()
  @IsUrl(
    { require_tld: false, require_protocol: true, protocols: ['http', 'https'] },
    {
      message:
        'MAIN_API_URL must be the http(s) base URL of main-api, e.g. http://localhost:3000 (it is required)',
    },
  )
  MAIN_API_URL!: string;

  @IntegerSetting('MAIN_API_TIMEOUT_MS', 100, 60000, 'of milliseconds')
  MAIN_API_TIMEOUT_MS = 5000;

  @IntegerSetting('MAIN_API_BREAKER_THRESHOLD', 1, 1000, 'of consecutive failed calls')
  MAIN_API_BREAKER_THRESHOLD = 5;

  @IntegerSetting('MAIN_API_BREAKER_COOLDOWN_MS', 100, 600000, 'of milliseconds')
  MAIN_API_BREAKER_COOLDOWN_MS = 5000;
}
