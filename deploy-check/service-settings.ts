import { type BaseServiceEnv } from '@platform/runtime';
import { instanceToPlain, plainToInstance, type ClassConstructor } from 'class-transformer';
import { validateSync } from 'class-validator';
// The settings each app validates at start-up are the truth the manifests are checked against:
// this check reads the apps' own configuration classes (test-only import of app code).
/* eslint-disable @nx/enforce-module-boundaries */
import { IntegrationsEnv } from '../apps/integrations/src/config/integrations.env';
import { MainApiEnv } from '../apps/main-api/src/config/main-api.env';
import { PlannerEnv } from '../apps/planner/src/config/planner.env';
/* eslint-enable @nx/enforce-module-boundaries */

export type ServiceName = 'main-api' | 'planner' | 'integrations';

export interface ServiceSettings {
  name: ServiceName;
  port: number;
  /** Every variable the app reads. */
  known: Set<string>;
  /** The variables it cannot start without. */
  required: Set<string>;
  /** Why the app would refuse to start with `value` for the variable `name`; undefined if it accepts it. */
  refusalOf(name: string, value: string): string | undefined;
}

function settingsOf(name: ServiceName, envClass: ClassConstructor<BaseServiceEnv>): ServiceSettings {
  const defaults = new envClass();
  const known = new Set(Object.keys(instanceToPlain(defaults, { strategy: 'excludeAll' })));
  const required = new Set(
    validateSync(
      plainToInstance(envClass, {}, { excludeExtraneousValues: true, exposeDefaultValues: true }),
    ).map((error) => error.property),
  );
  const refusalOf = (variable: string, value: string): string | undefined => {
    const env = plainToInstance(
      envClass,
      { [variable]: value },
      { excludeExtraneousValues: true, exposeDefaultValues: true },
    );
    const error = validateSync(env).find((candidate) => candidate.property === variable);
    return error ? (Object.values(error.constraints ?? {})[0] ?? `${variable} is invalid`) : undefined;
  };
  return { name, port: defaults.PORT, known, required, refusalOf };
}

export const SERVICES: readonly ServiceSettings[] = [
  settingsOf('main-api', MainApiEnv),
  settingsOf('planner', PlannerEnv),
  settingsOf('integrations', IntegrationsEnv),
];
