import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDateOnly, IsEntityId, MayBeAbsent } from '@platform/contracts';
import { Type } from 'class-transformer';
import {
  IsDefined,
  IsEmail,
  IsIn,
  IsNumber,
  IsObject,
  IsPositive,
  Max,
  MaxLength,
  ValidateNested,
} from 'class-validator';

export const ALLOCATION_RESOURCE_TYPES = ['Project'] as const;

/** The most hours one allocation may carry: every hour of a leap year. */
export const MAX_ALLOCATED_HOURS = 366 * 24;

export class AllocationResourceDto {
  @ApiProperty({ enum: ALLOCATION_RESOURCE_TYPES, example: 'Project' })
  @IsIn(ALLOCATION_RESOURCE_TYPES, { message: 'typeId must be Project, the only resource type' })
  typeId!: 'Project';

  @ApiProperty({ example: 7, description: 'The project id (main-api)' })
  @IsEntityId()
  entityId!: number;
}

/** docs/spec/interfaces.md "Allocation": the body of save and remove, and both halves of update. */
export class AllocationDto {
  @ApiProperty({ example: 12, description: 'The user being allocated' })
  @IsEntityId()
  userId!: number;

  @ApiProperty({ example: 1, description: "Your company's id; another company's is a 403" })
  @IsEntityId()
  companyId!: number;

  @ApiPropertyOptional({
    example: 'ada@agency.example',
    description: "The user's e-mail; optional and not stored: the planner keeps main-api's",
  })
  @MayBeAbsent()
  @IsEmail({}, { message: 'email must be an e-mail address' })
  @MaxLength(254)
  email?: string;

  @ApiProperty({ type: AllocationResourceDto })
  @IsDefined({ message: 'resource is required: {typeId: "Project", entityId: <project id>}' })
  @IsObject({ message: 'resource must be an object {typeId, entityId}' })
  @ValidateNested()
  @Type(() => AllocationResourceDto)
  resource!: AllocationResourceDto;

  @ApiProperty({ example: '2026-01-05', description: 'First day (YYYY-MM-DD), included' })
  @IsDateOnly()
  from!: string;

  @ApiProperty({
    example: '2026-01-30',
    description: 'Last day (YYYY-MM-DD), included; after `from`, at most 12 calendar months after it',
  })
  @IsDateOnly()
  to!: string;

  @ApiProperty({
    example: 3,
    description:
      "The user who made the allocation. With a user's token the planner records that user, whatever " +
      "this says (nobody books in another user's name); an API client's token names any user of the " +
      'company (UserNotFoundError otherwise). Required either way; not compared when finding an allocation.',
  })
  @IsEntityId()
  assignedByUserId!: number;

  @ApiProperty({ example: 60, description: 'Hours booked over the whole range: more than 0, two decimals' })
  // Reported bottom-up: the type comes first in the error message.
  @Max(MAX_ALLOCATED_HOURS, { message: `allocatedHours must be at most ${MAX_ALLOCATED_HOURS}` })
  @IsPositive({ message: 'allocatedHours must be more than 0' })
  @IsNumber(
    { allowNaN: false, allowInfinity: false, maxDecimalPlaces: 2 },
    { message: 'allocatedHours is required: a number of hours with at most two decimals' },
  )
  allocatedHours!: number;
}

export class UpdateAllocationDto {
  @ApiProperty({ type: AllocationDto, description: 'The allocation as it is stored now' })
  @IsDefined({ message: 'oldAllocation is required' })
  @IsObject({ message: 'oldAllocation must be an allocation object' })
  @ValidateNested()
  @Type(() => AllocationDto)
  oldAllocation!: AllocationDto;

  @ApiProperty({ type: AllocationDto, description: 'What it becomes (may name another project)' })
  @IsDefined({ message: 'newAllocation is required' })
  @IsObject({ message: 'newAllocation must be an allocation object' })
  @ValidateNested()
  @Type(() => AllocationDto)
  newAllocation!: AllocationDto;
}
