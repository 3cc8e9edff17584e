import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDateOnly, IsQueryIntegerInRange, MayBeAbsent } from '@platform/contracts';
import { IsIn } from 'class-validator';
import { ScenarioQueryDto } from '../../scenarios/dto/scenario-query.dto';

const BOOLEAN_TEXT = ['true', 'false'];
export const DEMAND_GRANULARITIES = ['week', 'month'] as const;
export const DEMAND_GROUPS = ['position', 'category'] as const;

/** `GET /v2/placeholders/{id}/candidates`. */
export class CandidatesQueryDto extends ScenarioQueryDto {
  @ApiPropertyOptional({
    example: '2027-03-01',
    description: "First day (YYYY-MM-DD); with `to`. Default: the placeholder's bookings, first to last day",
  })
  @MayBeAbsent()
  @IsDateOnly()
  from?: string;

  @ApiPropertyOptional({ example: '2027-03-31', description: 'Last day, included; with `from`' })
  @MayBeAbsent()
  @IsDateOnly()
  to?: string;

  @ApiPropertyOptional({
    enum: BOOLEAN_TEXT,
    description: "true: people's tentative bookings count against their free hours (default false)",
  })
  @MayBeAbsent()
  @IsIn(BOOLEAN_TEXT, { message: 'include_tentative must be true or false' })
  include_tentative?: 'true' | 'false';

  @ApiPropertyOptional({ example: 20, description: 'At most this many people (1 to 100, default 20)' })
  @MayBeAbsent()
  @IsQueryIntegerInRange(1, 100)
  limit: number = 20;
}

export class CandidateReasonsDto {
  @ApiProperty({ description: "In the placeholder's position (false when it has none)" })
  position_matched!: boolean;

  @ApiProperty({ description: "In the placeholder's category (false when it has none)" })
  category_matched!: boolean;

  @ApiProperty({ type: [Number], example: [5], description: "The placeholder's labels the person carries" })
  labels_matched!: number[];
}

export class CandidateDto {
  @ApiProperty({ example: 12 }) user_id!: number;
  @ApiProperty({ example: 'Ada' }) first_name!: string;
  @ApiProperty({ example: 'Lovelace' }) last_name!: string;
  @ApiProperty({ type: Number, nullable: true, example: 3 }) position_id!: number | null;
  @ApiProperty({ type: Number, nullable: true, example: 2 }) category_id!: number | null;

  @ApiProperty({
    example: 28,
    description: "Of the placeholder's hours, those the person is free for, day by day (min(free, booked))",
  })
  hours_covered!: number;

  @ApiProperty({ example: 0.875, description: 'hours_covered ÷ hours_needed (4 decimals)' })
  coverage!: number;

  @ApiProperty({ type: CandidateReasonsDto }) reasons!: CandidateReasonsDto;
}

export class CandidatesDto {
  @ApiProperty({ format: 'uuid' }) placeholder_id!: string;
  @ApiProperty({ example: '2027-03-01' }) from!: string;
  @ApiProperty({ example: '2027-03-31' }) to!: string;
  @ApiProperty({ example: 32, description: 'What the placeholder books in the window' })
  hours_needed!: number;

  @ApiProperty({
    type: [CandidateDto],
    description:
      'People able to cover some of it, best first: more hours covered, then position, category and labels matched, then id',
  })
  people!: CandidateDto[];

  @ApiProperty({ example: 14, description: 'People weighed: the company’s current people (at most 500)' })
  considered!: number;

  @ApiProperty({
    description: 'true when the company has more than 500 people: only the first 500 by id were weighed',
  })
  truncated!: boolean;
}

/** `GET /v2/demand`. */
export class DemandQueryDto extends ScenarioQueryDto {
  @ApiProperty({ example: '2027-03-01', description: 'First day (YYYY-MM-DD)' })
  @IsDateOnly()
  from!: string;

  @ApiProperty({ example: '2027-05-31', description: 'Last day, included; at most 366 days' })
  @IsDateOnly()
  to!: string;

  @ApiPropertyOptional({
    enum: DEMAND_GRANULARITIES,
    description: 'week (ISO, default) or month, clipped to the window',
  })
  @MayBeAbsent()
  @IsIn(DEMAND_GRANULARITIES)
  granularity?: (typeof DEMAND_GRANULARITIES)[number];

  @ApiPropertyOptional({ enum: DEMAND_GROUPS, description: 'position (default) or category' })
  @MayBeAbsent()
  @IsIn(DEMAND_GROUPS)
  group_by?: (typeof DEMAND_GROUPS)[number];

  @ApiPropertyOptional({
    enum: BOOLEAN_TEXT,
    description: "true: people's tentative bookings are filled demand, not supply (default false)",
  })
  @MayBeAbsent()
  @IsIn(BOOLEAN_TEXT, { message: 'include_tentative must be true or false' })
  include_tentative?: 'true' | 'false';
}

export class DemandFiguresDto {
  @ApiProperty({ example: 64, description: 'Hours placeholders of the group book (confirmed and tentative)' })
  demand_unfilled!: number;

  @ApiProperty({
    example: 120,
    description: "Hours the group's people are booked for (tentative with include_tentative)",
  })
  demand_filled!: number;

  @ApiProperty({
    example: 36,
    description: "The group's people's `available`, summed: what the availability read answers for them",
  })
  supply_available!: number;
}

export class DemandPeriodDto extends DemandFiguresDto {
  @ApiProperty({ example: '2027-03-01' }) from!: string;
  @ApiProperty({ example: '2027-03-07' }) to!: string;
}

export class DemandGroupDto {
  @ApiProperty({
    type: Number,
    nullable: true,
    example: 3,
    description: 'The position or category id; null: none',
  })
  id!: number | null;

  @ApiProperty({ type: String, nullable: true, example: 'Designer' }) name!: string | null;
  @ApiProperty({ type: DemandFiguresDto }) totals!: DemandFiguresDto;
  @ApiProperty({ type: [DemandPeriodDto] }) periods!: DemandPeriodDto[];
}

export class DemandDto {
  @ApiProperty({ example: '2027-03-01' }) from!: string;
  @ApiProperty({ example: '2027-05-31' }) to!: string;
  @ApiProperty({ enum: DEMAND_GRANULARITIES }) granularity!: string;
  @ApiProperty({ enum: DEMAND_GROUPS }) group_by!: string;
  @ApiProperty() include_tentative!: boolean;

  @ApiProperty({ type: [DemandGroupDto], description: 'By id, the group without one last' })
  groups!: DemandGroupDto[];

  @ApiProperty({
    description: 'true when the company has more than 500 people: only the first 500 by id count',
  })
  truncated!: boolean;
}
