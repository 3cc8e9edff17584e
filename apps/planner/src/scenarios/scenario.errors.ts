import { AllocationError } from '../allocations/allocation.errors';

export const scenarioNotFound = (id: string, status = 404) =>
  new AllocationError('ScenarioNotFoundError', `No scenario ${id} in your company`, status);

/** An applied scenario is history: its changes are the live plan's now. */
export const scenarioApplied = (id: string) =>
  new AllocationError(
    'ScenarioAppliedError',
    `Scenario ${id} was applied: its changes are in the live plan; read and write that, or make a new scenario`,
    409,
  );

export const invalidScenario = (message: string) => new AllocationError('InvalidScenarioError', message);
