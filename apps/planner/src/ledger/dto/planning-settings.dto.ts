import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean, IsIn } from 'class-validator';
import { CAPACITY_POLICIES, type CapacityPolicy } from '../planner-settings.entity';

/** `PUT /v2/planning-settings`: the company's capacity policy, both fields. */
export class PlanningSettingsBodyDto {
  @ApiProperty({
    enum: CAPACITY_POLICIES,
    example: 'reject',
    description:
      'What a v2 booking that puts a day of a person over capacity does: reject (422 OverCapacityError, nothing ' +
      'written), warn (booked; the answer names the days) or allow. A write may name its own (capacity_policy). ' +
      "The interface's routes are never refused for capacity.",
  })
  @IsIn(CAPACITY_POLICIES)
  capacity_policy!: CapacityPolicy;

  @ApiProperty({
    example: false,
    description: 'Whether tentative work counts against capacity (confirmed always does)',
  })
  @IsBoolean()
  count_tentative!: boolean;
}

export class PlanningSettingsDto extends PlanningSettingsBodyDto {
  @ApiProperty({ example: 1, description: 'The settings version: the ETag names it (1: never changed)' })
  version!: number;
}
