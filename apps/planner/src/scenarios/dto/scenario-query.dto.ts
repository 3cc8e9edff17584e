import { ApiPropertyOptional } from '@nestjs/swagger';
import { MayBeAbsent } from '@platform/contracts';
import { IsUUID } from 'class-validator';

/**
 * The query of every v2 route of the plan (allocations, placeholders, availability, demand): which
 * plan it works in. The controller enters it (ScenarioEntry) before calling its service.
 */
export class ScenarioQueryDto {
  @ApiPropertyOptional({
    format: 'uuid',
    description:
      'A draft scenario of your company (POST /v2/scenarios): the call reads and writes that ' +
      "scenario's plan instead of the live one. Without it, the live plan.",
  })
  @MayBeAbsent()
  @IsUUID('all')
  scenario_id?: string;
}

/** A created resource's Location: in the scenario the request named, its copy there. */
export function locationIn(query: ScenarioQueryDto, path: string): string {
  return query.scenario_id === undefined ? path : `${path}?scenario_id=${query.scenario_id.toLowerCase()}`;
}
