import { ApiProperty, ApiPropertyOptional, IntersectionType, OmitType, PartialType } from '@nestjs/swagger';
import {
  IsCurrencyId,
  IsDateOnly,
  IsDayOfWeek,
  IsEmailAddress,
  IsHoursOfDay,
  IsLeaveTypeId,
  IsPersonName,
  IsRoleId,
  IsTimeOfDay,
  IsUserPicture,
  IsUtcDateTime,
  MayBeAbsent,
} from '@platform/contracts';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsString,
  Length,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { ExternalCreateDto, IsExternalId, WithMetadataDto } from './integration-common.dto';

// Bodies of the integrations service: main-api's field names, with every reference to another
// entity given as the external id (same source) and translated through the mapping.

const Name = () => Length(1, 255, { message: 'name must be 1 to 255 characters' });

export class CreateClientBody extends ExternalCreateDto {
  @ApiProperty({ example: 'Acme Foods' })
  @IsString()
  @Name()
  name!: string;

  @ApiPropertyOptional({ example: 'billing@acme.example' })
  @MayBeAbsent()
  @IsEmailAddress()
  email?: string;

  @ApiPropertyOptional({ example: '+44 20 7946 0000' })
  @MayBeAbsent()
  @IsString()
  @MaxLength(50)
  phone?: string;

  @ApiPropertyOptional({ example: '1 Market St' })
  @MayBeAbsent()
  @IsString()
  @MaxLength(500)
  address?: string;

  @ApiPropertyOptional({ example: 'GB123' })
  @MayBeAbsent()
  @IsString()
  @MaxLength(50)
  tax_id?: string;

  @ApiPropertyOptional({ example: 1, description: 'Platform currency id (GET /v1/currencies)' })
  @MayBeAbsent()
  @IsCurrencyId()
  currency_id?: number;

  @ApiPropertyOptional({ example: false })
  @MayBeAbsent()
  @IsBoolean()
  archived?: boolean;
}
export class UpdateClientBody extends IntersectionType(
  WithMetadataDto,
  PartialType(OmitType(CreateClientBody, ['id', 'metadata'] as const), { skipNullProperties: false }),
) {}

export class CreateBrandBody extends ExternalCreateDto {
  @ApiProperty({ example: 'CLIENT-7', description: 'External id of the brand’s client' })
  @IsExternalId('client_id')
  client_id!: string;

  @ApiProperty({ example: 'Organic' })
  @IsString()
  @Name()
  name!: string;

  @ApiPropertyOptional({ example: 'The organic line' })
  @MayBeAbsent()
  @IsString()
  @MaxLength(2000)
  description?: string;
}
export class UpdateBrandBody extends IntersectionType(
  WithMetadataDto,
  PartialType(OmitType(CreateBrandBody, ['id', 'metadata'] as const), { skipNullProperties: false }),
) {}

export class CreateContractBody extends ExternalCreateDto {
  @ApiProperty({ example: 'CLIENT-7', description: 'External id of the client' })
  @IsExternalId('client_id')
  client_id!: string;

  @ApiProperty({ example: 'Master services agreement' })
  @IsString()
  @Name()
  name!: string;

  @ApiPropertyOptional({ example: 1 })
  @MayBeAbsent()
  @IsCurrencyId()
  currency_id?: number;

  @ApiPropertyOptional({ example: 'retainer' })
  @MayBeAbsent()
  @IsString()
  @MaxLength(100)
  type?: string;

  @ApiPropertyOptional({ example: 'active' })
  @MayBeAbsent()
  @IsString()
  @MaxLength(100)
  status?: string;

  @ApiPropertyOptional({ example: 'monthly' })
  @MayBeAbsent()
  @IsString()
  @MaxLength(100)
  frequency?: string;

  @ApiPropertyOptional({ example: '2026-01-01' })
  @MayBeAbsent()
  @IsDateOnly()
  start?: string;

  @ApiPropertyOptional({ example: '2026-12-31' })
  @MayBeAbsent()
  @IsDateOnly()
  end?: string;
}
export class UpdateContractBody extends IntersectionType(
  WithMetadataDto,
  PartialType(OmitType(CreateContractBody, ['id', 'metadata'] as const), { skipNullProperties: false }),
) {}

export class CreatePositionCategoryBody extends ExternalCreateDto {
  @ApiProperty({ example: 'Creative' })
  @IsString()
  @Name()
  name!: string;
}
export class UpdatePositionCategoryBody extends IntersectionType(
  WithMetadataDto,
  PartialType(OmitType(CreatePositionCategoryBody, ['id', 'metadata'] as const), {
    skipNullProperties: false,
  }),
) {}

export class CreatePositionBody extends ExternalCreateDto {
  @ApiProperty({ example: 'Designer' })
  @IsString()
  @Name()
  name!: string;

  @ApiPropertyOptional({ example: 'CAT-1', description: 'External id of the position category' })
  @MayBeAbsent()
  @IsExternalId('category_id')
  category_id?: string;
}
export class UpdatePositionBody extends IntersectionType(
  WithMetadataDto,
  PartialType(OmitType(CreatePositionBody, ['id', 'metadata'] as const), { skipNullProperties: false }),
) {}

/** interfaces.md "Integration project". */
export class CreateProjectBody extends ExternalCreateDto {
  @ApiProperty({ example: 'Spring campaign' })
  @IsString()
  @Name()
  name!: string;

  @ApiProperty({ example: 'CLIENT-7', description: 'External id of the client' })
  @IsExternalId('client_id')
  client_id!: string;

  @ApiPropertyOptional({ example: '2026-03-01' })
  @MayBeAbsent()
  @IsDateOnly()
  start?: string;

  @ApiPropertyOptional({ example: '2026-06-30' })
  @MayBeAbsent()
  @IsDateOnly()
  end?: string;

  @ApiPropertyOptional({ example: 'BRAND-3', description: 'External id of a brand of the client' })
  @MayBeAbsent()
  @IsExternalId('brand_id')
  brand_id?: string;

  @ApiPropertyOptional({ example: 'USER-9', description: 'External id of the project manager' })
  @MayBeAbsent()
  @IsExternalId('pm_id')
  pm_id?: string;

  @ApiPropertyOptional({ example: 'CONTRACT-2', description: 'External id of a contract of the client' })
  @MayBeAbsent()
  @IsExternalId('contract_id')
  contract_id?: string;

  @ApiPropertyOptional({ example: 'Launch the spring range' })
  @MayBeAbsent()
  @IsString()
  @MaxLength(5000)
  brief?: string;

  @ApiPropertyOptional({ enum: ['active', 'finished', 'suspended', 'in_process'] })
  @MayBeAbsent()
  @IsIn(['active', 'finished', 'suspended', 'in_process'], {
    message: 'status must be one of active, finished, suspended, in_process',
  })
  status?: string;

  @ApiPropertyOptional({ example: true })
  @MayBeAbsent()
  @IsBoolean()
  billable?: boolean;

  @ApiPropertyOptional({ example: false })
  @MayBeAbsent()
  @IsBoolean()
  archived?: boolean;
}
export class UpdateProjectBody extends IntersectionType(
  WithMetadataDto,
  PartialType(OmitType(CreateProjectBody, ['id', 'metadata'] as const), { skipNullProperties: false }),
) {}

export class CreateTeamBody extends ExternalCreateDto {
  @ApiProperty({ example: 'Pod A' })
  @IsString()
  @Name()
  name!: string;

  @ApiPropertyOptional({ example: 'Brand team' })
  @MayBeAbsent()
  @IsString()
  @MaxLength(2000)
  description?: string;
}
export class UpdateTeamBody extends IntersectionType(
  WithMetadataDto,
  PartialType(OmitType(CreateTeamBody, ['id', 'metadata'] as const), { skipNullProperties: false }),
) {}

export class CreateUserBody extends ExternalCreateDto {
  @ApiProperty({ example: 'Ada' })
  @IsPersonName()
  first_name!: string;

  @ApiProperty({ example: 'Lovelace' })
  @IsPersonName()
  last_name!: string;

  @ApiProperty({ example: 'ada@agency.example' })
  @IsEmailAddress()
  email!: string;

  @ApiProperty({ example: 4, description: '1 C-Level … 6 Client' })
  @IsRoleId()
  role_id!: number;

  @ApiPropertyOptional({ example: 'POS-1', description: 'External id of the position' })
  @MayBeAbsent()
  @IsExternalId('user_position_id')
  user_position_id?: string;

  @ApiPropertyOptional({ example: 'https://cdn.example/ada.png' })
  @MayBeAbsent()
  @IsUserPicture()
  picture?: string;

  @ApiPropertyOptional({ example: false })
  @MayBeAbsent()
  @IsBoolean()
  hidden?: boolean;
}
export class UpdateUserBody extends IntersectionType(
  WithMetadataDto,
  PartialType(OmitType(CreateUserBody, ['id', 'metadata'] as const), { skipNullProperties: false }),
) {}

/** `PUT /users/{external_id}/position` (decisions §7). */
export class AssignPositionBody extends WithMetadataDto {
  @ApiProperty({ example: 'POS-1', description: 'External id of the position' })
  @IsExternalId('position_id')
  position_id!: string;
}

/** interfaces.md "User leave" request, with the user as an external id. */
export class CreateUserLeaveBody extends ExternalCreateDto {
  @ApiProperty({ example: 'USER-9', description: 'External id of the user' })
  @IsExternalId('userId')
  userId!: string;

  @ApiProperty({ example: 1, description: '1 Vacation … 6 Other' })
  @IsLeaveTypeId()
  leaveTypeId!: number;

  @ApiProperty({ example: '2026-12-21T00:00:00Z' })
  @IsUtcDateTime('2026-12-21T00:00:00Z')
  start!: string;

  @ApiProperty({ example: '2026-12-24T23:59:59Z' })
  @IsUtcDateTime('2026-12-24T23:59:59Z')
  end!: string;

  @ApiPropertyOptional({ example: true })
  @MayBeAbsent()
  @IsBoolean()
  allDay?: boolean;
}

/** interfaces.md "Workspace (integrations)". */
export class CreateWorkspaceBody extends ExternalCreateDto {
  @ApiProperty({ example: 'Studio' })
  @IsString()
  @Name()
  name!: string;

  @ApiPropertyOptional({ example: true, description: 'Default true' })
  @MayBeAbsent()
  @IsBoolean()
  active?: boolean;

  @ApiPropertyOptional({ example: 'The London studio' })
  @MayBeAbsent()
  @IsString()
  @MaxLength(2000)
  description?: string;
}
export class UpdateWorkspaceBody extends IntersectionType(
  WithMetadataDto,
  PartialType(OmitType(CreateWorkspaceBody, ['id', 'metadata'] as const), { skipNullProperties: false }),
) {}

export class WorkingTimeEntryBody {
  @ApiProperty({ example: 1, description: '0 = Sunday … 6 = Saturday' })
  @IsDayOfWeek()
  day_of_week!: number;

  @ApiProperty({ example: 8 })
  @IsHoursOfDay()
  daily_hours!: number;

  @ApiProperty({ example: '09:00:00' })
  @IsTimeOfDay()
  start_at!: string;

  @ApiProperty({ example: '18:00:00' })
  @IsTimeOfDay()
  end_at!: string;

  @ApiPropertyOptional({ example: 1 })
  @MayBeAbsent()
  @IsHoursOfDay()
  break_time?: number;
}

/** A user's working week, set as one entity: deleting it empties the week. */
export class CreateWorkingTimeBody extends ExternalCreateDto {
  @ApiProperty({ example: 'USER-9', description: 'External id of the user' })
  @IsExternalId('user_id')
  user_id!: string;

  @ApiProperty({ type: [WorkingTimeEntryBody] })
  @IsArray()
  @ArrayMaxSize(7)
  @ValidateNested({ each: true })
  @Type(() => WorkingTimeEntryBody)
  entries!: WorkingTimeEntryBody[];
}
