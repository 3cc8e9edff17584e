import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDateOnly, IsEntityId, MayBeAbsent } from '@platform/contracts';
import { IsIn } from 'class-validator';
import { AllocationV2Dto, OverAllocatedDayDto } from '../../ledger/dto/allocation-v2.dto';
import { CAPACITY_POLICIES, type CapacityPolicy } from '../../ledger/planner-settings.entity';

/** The body of `POST /v2/placeholders/{id}/assign`: whom it goes to, and which days (both or neither). */
export class FillPlaceholderDto {
  @ApiProperty({
    example: 12,
    description: 'The person who takes the bookings (a main-api user of your company)',
  })
  @IsEntityId()
  user_id!: number;

  @ApiPropertyOptional({
    example: '2027-01-11',
    description: 'First day of the window to move (with to); left out with to, every booking moves',
  })
  @MayBeAbsent()
  @IsDateOnly()
  from?: string;

  @ApiPropertyOptional({ example: '2027-01-22', description: 'Last day of the window to move (with from)' })
  @MayBeAbsent()
  @IsDateOnly()
  to?: string;

  @ApiPropertyOptional({
    enum: CAPACITY_POLICIES,
    description: "The capacity policy of this fill; left out, the company's planning settings",
  })
  @MayBeAbsent()
  @IsIn(CAPACITY_POLICIES)
  capacity_policy?: CapacityPolicy;
}

/** What a fill did: the allocations moved whole, those made by splits, and the person's result. */
export class FillPlaceholderAnswerDto {
  @ApiProperty({
    type: [String],
    format: 'uuid',
    description: 'Allocations moved whole to the person: they keep their ids (an `updated` event each)',
  })
  moved!: string[];

  @ApiProperty({
    type: [String],
    format: 'uuid',
    description:
      "New allocations made by splitting at the window's bounds (a `created` event each): the person's " +
      "part of a split allocation, and, for a window inside one allocation, the placeholder's part after " +
      "it (the placeholder keeps the original id for the part before). Those in `allocations` are the person's",
  })
  created!: string[];

  @ApiProperty({
    type: [AllocationV2Dto],
    description: "The person's allocations this fill wrote (moved and created), with their days",
  })
  allocations!: AllocationV2Dto[];

  @ApiProperty({
    type: [OverAllocatedDayDto],
    description: "The days of the moved bookings where the person's bookings exceed capacity (warn, allow)",
  })
  over_allocated_days!: OverAllocatedDayDto[];
}
