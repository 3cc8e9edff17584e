import {
  ownerDataSourceOptions,
  serviceDataSourceOptions,
  type DatabaseEnv,
  type ServiceDatabase,
} from '@platform/database';
import type { DataSourceOptions } from 'typeorm';
import { Allocation } from '../allocations/allocation.entity';
import { ChangeEvent, ChangeFeedWatermark } from '../change-feed/change-event.entity';
import { EventStreamTicket } from '../change-feed/stream/event-stream-ticket.entity';
import { AllocationDay } from '../ledger/allocation-day.entity';
import { PlannerSettings } from '../ledger/planner-settings.entity';
import { Placeholder } from '../placeholders/placeholder.entity';
import { Scenario } from '../scenarios/scenario.entity';
import {
  ScenarioAllocation,
  ScenarioAllocationDay,
  ScenarioPlaceholder,
  ScenarioRemoval,
} from '../scenarios/scenario-plan.entity';
import { PLANNER_MIGRATIONS } from './migrations';

/** planner's own schema, entities and migrations: shared by the app, the migrate command and tests. */
export const PLANNER_DATABASE: ServiceDatabase = {
  schema: 'planner',
  applicationName: 'planner',
  runtimeRole: 'planner_runtime',
  entities: [
    Allocation,
    AllocationDay,
    PlannerSettings,
    Placeholder,
    ChangeEvent,
    ChangeFeedWatermark,
    Scenario,
    ScenarioPlaceholder,
    ScenarioAllocation,
    ScenarioAllocationDay,
    ScenarioRemoval,
    EventStreamTicket,
  ],
  migrations: PLANNER_MIGRATIONS,
};

/** The service's own connections, as `planner_runtime` under row-level security. */
export function plannerDataSourceOptions(env: DatabaseEnv): DataSourceOptions & { schema: string } {
  return serviceDataSourceOptions(PLANNER_DATABASE, env);
}

/** The owner's connections: migrations, migration generation, and tests that inspect the tables. */
export function plannerOwnerDataSourceOptions(env: DatabaseEnv): DataSourceOptions & { schema: string } {
  return ownerDataSourceOptions(PLANNER_DATABASE, env);
}
