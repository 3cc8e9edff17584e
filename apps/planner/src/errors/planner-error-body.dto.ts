import { ApiProperty } from '@nestjs/swagger';
import { PLANNER_ERROR_NAMES } from './planner-error-names';

/** Planner error body `{error, message}` (docs/spec/interfaces.md "Allocation error body"). */
export class PlannerErrorBodyDto {
  @ApiProperty({ enum: PLANNER_ERROR_NAMES, example: 'InvalidAllocationError' })
  error!: string;

  @ApiProperty({ example: '`to` must be after `from`' })
  message!: string;
}
