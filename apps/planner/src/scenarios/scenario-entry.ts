import { Injectable } from '@nestjs/common';
import { Plan } from './plan';
import { RequestPlan } from './request-plan';
import { scenarioApplied, scenarioNotFound } from './scenario.errors';
import { ScenariosRepository } from './scenarios.repository';

/**
 * How a v2 route enters the scenario its caller named (`scenario_id`): checked to be a draft of the
 * caller's company (404 ScenarioNotFoundError, 409 ScenarioAppliedError), then the request's plan,
 * which every repository of the plan reads and writes. No `scenario_id`: the live plan.
 */
@Injectable()
export class ScenarioEntry {
  constructor(
    private readonly scenarios: ScenariosRepository,
    private readonly plans: RequestPlan,
  ) {}

  async enter(scenarioId: string | undefined): Promise<void> {
    if (scenarioId === undefined) {
      return;
    }
    const scenario = await this.scenarios.get(scenarioId);
    if (!scenario) {
      throw scenarioNotFound(scenarioId);
    }
    if (scenario.status !== 'draft') {
      throw scenarioApplied(scenarioId);
    }
    // The id as PostgreSQL prints it (a query may spell a uuid in upper case).
    this.plans.set(Plan.scenario(scenario.id));
  }
}
