import type { Provider } from '@nestjs/common';
import { INTEGRATIONS_ENV, type IntegrationsEnv } from '../config/integrations.env';
import { parseAllowedOrigins, TargetPolicy } from './delivery/target-policy';

/** The SSRF rules with the operator's allow-list, for the routes and the worker alike. */
export const TARGET_POLICY_PROVIDER: Provider = {
  provide: TargetPolicy,
  useFactory: (env: IntegrationsEnv) =>
    new TargetPolicy(parseAllowedOrigins(env.SUBSCRIPTION_HTTP_ALLOWED_ORIGINS)),
  inject: [INTEGRATIONS_ENV],
};
