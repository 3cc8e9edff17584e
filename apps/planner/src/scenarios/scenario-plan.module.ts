import { Global, Module } from '@nestjs/common';
import { RequestPlan } from './request-plan';
import { ScenarioEntry } from './scenario-entry';
import { ScenariosRepository } from './scenarios.repository';

/**
 * The request's plan (issue 39), for every module whose repositories read and write the plan
 * (ledger, placeholders, staffing) and every controller that enters a scenario: global, because
 * those modules are below the scenarios' own (which needs the ledger and availability).
 */
@Global()
@Module({
  providers: [RequestPlan, ScenarioEntry, ScenariosRepository],
  exports: [RequestPlan, ScenarioEntry, ScenariosRepository],
})
export class ScenarioPlanModule {}
