import { Expose } from 'class-transformer';
import { IsInt, IsUrl, Max, Min } from 'class-validator';
import { BaseServiceEnv, ToInteger } from '@platform/runtime';

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

  @Expose()
  @ToInteger()
  @IsInt({ message: 'MAIN_API_TIMEOUT_MS must be an integer of milliseconds between 100 and 60000' })
  @Min(100, { message: 'MAIN_API_TIMEOUT_MS must be an integer of milliseconds between 100 and 60000' })
  @Max(60000, { message: 'MAIN_API_TIMEOUT_MS must be an integer of milliseconds between 100 and 60000' })
  MAIN_API_TIMEOUT_MS = 5000;
}
