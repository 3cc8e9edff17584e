import { applyDecorators } from '@nestjs/common';
import { ApiConflictResponse, ApiNotFoundResponse } from '@nestjs/swagger';
import { PlannerErrorBodyDto } from '../errors/planner-error-body.dto';

const NOT_FOUND = 'ScenarioNotFoundError: scenario_id names no scenario of your company';
const APPLIED = 'ScenarioAppliedError: scenario_id names a scenario applied already';

/**
 * The answers a route of the plan adds for its `scenario_id` (ScenarioEntry), beside its own 404 and
 * 409 (one response per status in the document, so they are written together here).
 */
export function InPlan(own: { notFound?: string; conflict?: string } = {}) {
  return applyDecorators(
    ApiNotFoundResponse({
      type: PlannerErrorBodyDto,
      description: own.notFound ? `${own.notFound}; ${NOT_FOUND}` : NOT_FOUND,
    }),
    ApiConflictResponse({
      type: PlannerErrorBodyDto,
      description: own.conflict ? `${own.conflict}; ${APPLIED}` : APPLIED,
    }),
  );
}
