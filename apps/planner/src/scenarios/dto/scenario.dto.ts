import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsQueryIntegerInRange, MayBeAbsent } from '@platform/contracts';
import { IsIn, IsString, Length, Matches } from 'class-validator';
import { PlannerErrorBodyDto } from '../../errors/planner-error-body.dto';
import { AllocationV2Dto, OverAllocatedDayDto } from '../../ledger/dto/allocation-v2.dto';
import { PlaceholderDto } from '../../placeholders/dto/placeholder.dto';
import { SCENARIO_ENTITY_KINDS, type ScenarioEntityKind } from '../scenario-plan.entity';
import { SCENARIO_STATUSES, type ScenarioStatus } from '../scenario.entity';

export const MAX_SCENARIOS_PER_PAGE = 200;

/** `live`, or a draft scenario's id. */
const BASE = /^(live|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/;

/** The body of `POST /v2/scenarios`. */
export class CreateScenarioDto {
  @ApiProperty({ example: 'Q3 pitch: Ada takes the rebrand', minLength: 1, maxLength: 100 })
  @IsString()
  @Length(1, 100)
  name!: string;

  @ApiPropertyOptional({
    example: 'live',
    description:
      'What the scenario starts as a copy of: `live` (the default), or the id of a draft scenario of your company',
  })
  @MayBeAbsent()
  @IsString()
  @Matches(BASE, { message: 'base must be live or the id of a draft scenario' })
  base?: string;
}

export class ListScenariosQueryDto {
  @ApiPropertyOptional({
    example: 50,
    description: `At most this many scenarios (1 to ${MAX_SCENARIOS_PER_PAGE}, default 50)`,
  })
  @MayBeAbsent()
  @IsQueryIntegerInRange(1, MAX_SCENARIOS_PER_PAGE)
  limit: number = 50;

  @ApiPropertyOptional({ description: 'The next_cursor of the previous page' })
  @MayBeAbsent()
  @Matches(/^[A-Za-z0-9_-]{1,1000}$/, { message: 'cursor must be the next_cursor of a previous page' })
  cursor?: string;

  @ApiPropertyOptional({ enum: SCENARIO_STATUSES, description: 'Only drafts, or only applied ones' })
  @MayBeAbsent()
  @IsIn(SCENARIO_STATUSES)
  status?: ScenarioStatus;
}

/** The ids an apply wrote, by entity. */
export class ScenarioIdsDto {
  @ApiProperty({ type: [String], format: 'uuid' }) allocations!: string[];
  @ApiProperty({ type: [String], format: 'uuid' }) placeholders!: string[];
}

/** What an apply changed in the live plan. */
export class AppliedChangesDto {
  @ApiProperty({ type: ScenarioIdsDto }) created!: ScenarioIdsDto;
  @ApiProperty({ type: ScenarioIdsDto }) updated!: ScenarioIdsDto;
  @ApiProperty({ type: ScenarioIdsDto }) deleted!: ScenarioIdsDto;
}

/** A scenario as `/v2/scenarios` answers it. */
export class ScenarioDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ example: 'Q3 pitch: Ada takes the rebrand' }) name!: string;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The scenario it was copied from; null: the live plan',
  })
  base_scenario_id!: string | null;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: "Who made it; null for an API client's token",
  })
  author_user_id!: number | null;
  @ApiProperty({ enum: SCENARIO_STATUSES }) status!: ScenarioStatus;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) applied_at!: string | null;
  @ApiProperty({ type: 'integer', nullable: true }) applied_by_user_id!: number | null;
  @ApiProperty({ type: AppliedChangesDto, nullable: true, description: 'Once applied: what it changed' })
  applied_changes!: AppliedChangesDto | null;
  @ApiProperty({
    example: 3,
    description: "The scenario's version, which every write into it moves: the ETag names it",
  })
  version!: number;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class ScenarioPageDto {
  @ApiProperty({ type: [ScenarioDto] }) data!: ScenarioDto[];
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Pass as cursor for the next page; null on the last',
  })
  next_cursor!: string | null;
  @ApiProperty() has_more!: boolean;
}

export const SCENARIO_CHANGES = ['created', 'updated', 'deleted'] as const;
export type ScenarioChange = (typeof SCENARIO_CHANGES)[number];
export const SCENARIO_CONFLICTS = [
  'live_changed',
  'live_deleted',
  'already_exists',
  'overlap',
  'placeholder_booked',
  'over_capacity',
] as const;
export type ScenarioConflictReason = (typeof SCENARIO_CONFLICTS)[number];

/** Why one change of a scenario cannot be applied as it stands. */
export class ScenarioConflictDto {
  @ApiProperty({ enum: SCENARIO_ENTITY_KINDS }) entity!: ScenarioEntityKind;
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({
    enum: SCENARIO_CONFLICTS,
    description:
      'live_changed / live_deleted: the live row changed (or went) since the scenario copied it; already_exists: ' +
      'the live plan has it already (another scenario made from this one was applied); overlap: the person or ' +
      'placeholder is on the project those days in the live plan; placeholder_booked: the live plan still books a ' +
      'placeholder the scenario deletes; over_capacity: under the reject policy, days over capacity',
  })
  reason!: ScenarioConflictReason;
  @ApiProperty({
    example: 'allocation 6f1c… changed in the live plan since the scenario copied it (version 2, now 3)',
  })
  message!: string;
  @ApiPropertyOptional({ type: [OverAllocatedDayDto], description: 'over_capacity: the days' })
  over_allocated_days?: OverAllocatedDayDto[];
}

/** One allocation the scenario creates, changes or deletes, as the live plan has it and as the scenario does. */
export class ScenarioAllocationChangeDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ enum: SCENARIO_CHANGES }) change!: ScenarioChange;
  @ApiProperty({
    type: AllocationV2Dto,
    nullable: true,
    description: 'The live plan now (with days); null: none',
  })
  live!: AllocationV2Dto | null;
  @ApiProperty({
    type: AllocationV2Dto,
    nullable: true,
    description: 'The scenario (with days); null: deleted',
  })
  scenario!: AllocationV2Dto | null;
  @ApiProperty({
    type: ScenarioConflictDto,
    nullable: true,
    description: 'Why applying would refuse it, if so',
  })
  conflict!: ScenarioConflictDto | null;
}

export class ScenarioPlaceholderChangeDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ enum: SCENARIO_CHANGES }) change!: ScenarioChange;
  @ApiProperty({ type: PlaceholderDto, nullable: true }) live!: PlaceholderDto | null;
  @ApiProperty({ type: PlaceholderDto, nullable: true }) scenario!: PlaceholderDto | null;
  @ApiProperty({ type: ScenarioConflictDto, nullable: true }) conflict!: ScenarioConflictDto | null;
}

/** A person's figures over the impact's window in one plan (hours; `available` may be negative). */
export class ImpactFiguresDto {
  @ApiProperty({ example: 160 }) capacity!: number;
  @ApiProperty({ example: 120 }) confirmed!: number;
  @ApiProperty({ example: 16 }) tentative!: number;
  @ApiProperty({ example: 40, description: 'capacity − confirmed' }) available!: number;
  @ApiProperty({ example: 0, description: 'Days whose confirmed hours exceed capacity' })
  over_allocated_days!: number;
}

/** What the scenario does to one person's capacity, between the first and last day it changes. */
export class CapacityImpactDto {
  @ApiProperty({ example: 12 }) user_id!: number;
  @ApiProperty({ example: '2027-03-01' }) from!: string;
  @ApiProperty({ example: '2027-03-31' }) to!: string;
  @ApiProperty({ type: ImpactFiguresDto }) live!: ImpactFiguresDto;
  @ApiProperty({ type: ImpactFiguresDto }) scenario!: ImpactFiguresDto;
  @ApiProperty({ example: 24, description: 'scenario − live booked hours (confirmed and tentative)' })
  booked_change!: number;
}

/** `GET /v2/scenarios/{id}/diff`. */
export class ScenarioDiffDto {
  @ApiProperty({ type: ScenarioDto }) scenario!: ScenarioDto;
  @ApiProperty({ type: [ScenarioAllocationChangeDto] }) allocations!: ScenarioAllocationChangeDto[];
  @ApiProperty({ type: [ScenarioPlaceholderChangeDto] }) placeholders!: ScenarioPlaceholderChangeDto[];
  @ApiProperty({ type: [CapacityImpactDto], description: 'Per person whose bookings the scenario changes' })
  capacity_impact!: CapacityImpactDto[];
  @ApiProperty({
    example: 0,
    description:
      'Changes that conflict with the live plan as it stands (versions and overlaps; capacity is weighed on apply)',
  })
  conflicts!: number;
}

/** A day over capacity after an apply, and whose. */
export class ScenarioOverAllocatedDayDto extends OverAllocatedDayDto {
  @ApiProperty({ example: 12 }) user_id!: number;
}

/** The answer of `POST /v2/scenarios/{id}/apply`. */
export class ApplyScenarioAnswerDto extends AppliedChangesDto {
  @ApiProperty({ type: ScenarioDto }) scenario!: ScenarioDto;
  @ApiProperty({
    type: [ScenarioOverAllocatedDayDto],
    description: 'Under the warn policy: days the applied plan puts over capacity (each an event)',
  })
  over_allocated_days!: ScenarioOverAllocatedDayDto[];
}

/** 409: ScenarioConflictError with every conflict (nothing was applied), or ScenarioAppliedError. */
export class ScenarioConflictErrorBodyDto extends PlannerErrorBodyDto {
  @ApiPropertyOptional({ type: [ScenarioConflictDto], description: 'ScenarioConflictError: every conflict' })
  conflicts?: ScenarioConflictDto[];
}
