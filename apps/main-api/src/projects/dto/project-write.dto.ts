import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { IsDateOnly, MayBeAbsent, MayBeAbsentOrNull } from '@platform/contracts';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { PROJECT_STATUS_ALIASES, ProjectStatus } from '../project-status';
import { INCOME_TYPES, type IncomeType } from '../project.entity';

const ID = { min: 1, max: 2_147_483_647 } as const;
const HOURS = { allowNaN: false, allowInfinity: false, maxDecimalPlaces: 2 } as const;

/** `1`/`0` as well as `true`/`false` (docs/spec/interfaces.md: estimation_by_categories "boolean or integer"). */
const ToFlag = () =>
  Transform(({ value }: { value: unknown }) =>
    value === 1 || value === '1' ? true : value === 0 || value === '0' ? false : value,
  );

export class EstimateItemDto {
  @ApiProperty({
    type: 'integer',
    example: 5,
    description: 'A position (users_positions) or position category (categories) id',
  })
  @IsInt()
  @Min(ID.min)
  @Max(ID.max)
  id!: number;

  @ApiPropertyOptional({ example: 40, minimum: 0, description: 'Estimated hours' })
  @MayBeAbsent()
  @IsNumber(HOURS)
  @Min(0)
  @Max(1_000_000)
  estimated_time?: number;
}

/** `POST /projects`: the project and every profitability and estimation field of docs/spec/interfaces.md. */
export class CreateProjectDto {
  @ApiProperty({ example: 'Spring campaign', maxLength: 200 })
  @IsString()
  @Length(1, 200)
  name!: string;

  @ApiProperty({ type: 'integer', example: 7, description: 'A client of your company' })
  @IsInt()
  @Min(ID.min)
  @Max(ID.max)
  client_id!: number;

  @ApiPropertyOptional({ example: 'Launch the spring range across social and OOH' })
  @MayBeAbsent()
  @IsString()
  @MaxLength(20000)
  brief?: string;

  @ApiPropertyOptional({
    type: 'integer',
    example: 12,
    description: 'Project manager: a user of your company',
  })
  @MayBeAbsent()
  @IsInt()
  @Min(ID.min)
  @Max(ID.max)
  pm_id?: number;

  @ApiPropertyOptional({ type: 'integer', example: 4, description: "A brand of the project's client" })
  @MayBeAbsent()
  @IsInt()
  @Min(ID.min)
  @Max(ID.max)
  brand_id?: number;

  @ApiPropertyOptional({ type: 'integer', example: 9, description: "A product of the project's client" })
  @MayBeAbsent()
  @IsInt()
  @Min(ID.min)
  @Max(ID.max)
  product_id?: number;

  @ApiPropertyOptional({ type: 'integer', example: 3, nullable: true, description: 'null clears it' })
  @MayBeAbsentOrNull()
  @IsInt()
  @Min(ID.min)
  @Max(ID.max)
  template_id?: number;

  @ApiPropertyOptional({
    type: 'integer',
    enum: [1, 2, 3, 4],
    example: 1,
    description: '1 on track, 2 at risk, 3 delayed, 4 critical',
  })
  @MayBeAbsent()
  @IsInt()
  @Min(1)
  @Max(4)
  health?: number;

  @ApiPropertyOptional({
    enum: ['active', 'finished', 'suspended', 'in_process'],
    description: '`in_process` is stored as `active`',
  })
  @MayBeAbsent()
  @Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' ? (PROJECT_STATUS_ALIASES[value] ?? value) : value,
  )
  @IsIn(Object.values(ProjectStatus), {
    message: 'status must be one of active, finished, suspended (or in_process)',
  })
  status?: ProjectStatus;

  @ApiPropertyOptional({ type: String, format: 'date', example: '2026-03-01' })
  @MayBeAbsent()
  @IsDateOnly()
  start?: string;

  @ApiPropertyOptional({
    type: String,
    format: 'date',
    example: '2026-05-31',
    description: 'Not before start',
  })
  @MayBeAbsent()
  @IsDateOnly()
  end?: string;

  @ApiPropertyOptional({ example: false })
  @MayBeAbsent()
  @IsBoolean()
  archived?: boolean;

  @ApiPropertyOptional({ example: true })
  @MayBeAbsent()
  @IsBoolean()
  billable?: boolean;

  @ApiPropertyOptional({
    example: [1, 4],
    type: 'integer',
    isArray: true,
    maxItems: 100,
    description: 'Project label ids (GET /categories/labels-model?model=project)',
  })
  @MayBeAbsent()
  @IsArray()
  @ArrayMaxSize(100)
  @IsInt({ each: true })
  @Min(ID.min, { each: true })
  @Max(ID.max, { each: true })
  labels?: number[];

  @ApiPropertyOptional({ example: 120, description: 'Total estimated hours: the default estimation mode' })
  @MayBeAbsent()
  @IsNumber(HOURS)
  @Min(0)
  @Max(10_000_000)
  estimated_time?: number;

  @ApiPropertyOptional({
    example: false,
    description: 'Estimate by positions (users_positions); excludes estimation_by_categories',
  })
  @MayBeAbsent()
  @IsBoolean()
  estimated_by_position?: boolean;

  @ApiPropertyOptional({ type: [EstimateItemDto] })
  @MayBeAbsent()
  @IsArray()
  @ArrayMaxSize(500)
  @ValidateNested({ each: true })
  @Type(() => EstimateItemDto)
  users_positions?: EstimateItemDto[];

  @ApiPropertyOptional({
    oneOf: [{ type: 'boolean' }, { type: 'integer', enum: [0, 1] }],
    example: 1,
    description: '`1` or `true` enables estimation by position categories',
  })
  @MayBeAbsent()
  @ToFlag()
  @IsBoolean({ message: 'estimation_by_categories must be true, false, 1 or 0' })
  estimation_by_categories?: boolean;

  @ApiPropertyOptional({ type: [EstimateItemDto] })
  @MayBeAbsent()
  @IsArray()
  @ArrayMaxSize(500)
  @ValidateNested({ each: true })
  @Type(() => EstimateItemDto)
  categories?: EstimateItemDto[];

  @ApiPropertyOptional({ example: false })
  @MayBeAbsent()
  @IsBoolean()
  estimated_by_hourly_rates?: boolean;

  @ApiPropertyOptional({
    type: 'integer',
    example: 2,
    description: 'Alias of user_positions_header_id; wins when both are sent',
  })
  @MayBeAbsent()
  @IsInt()
  @Min(ID.min)
  @Max(ID.max)
  ratecard_id?: number;

  @ApiPropertyOptional({ type: 'integer', example: 2, description: 'The assigned ratecard' })
  @MayBeAbsent()
  @IsInt()
  @Min(ID.min)
  @Max(ID.max)
  user_positions_header_id?: number;

  @ApiPropertyOptional({
    enum: INCOME_TYPES,
    description:
      'fee needs fee_id, contract needs contract_id, one_time needs estimated, hourly_rate needs a ratecard',
  })
  @MayBeAbsent()
  @IsIn(INCOME_TYPES)
  income_type?: IncomeType;

  @ApiPropertyOptional({ type: 'integer', example: 3, description: "A fee of the project's client" })
  @MayBeAbsent()
  @IsInt()
  @Min(ID.min)
  @Max(ID.max)
  fee_id?: number;

  @ApiPropertyOptional({ type: 'integer', example: 5, description: "A contract of the project's client" })
  @MayBeAbsent()
  @IsInt()
  @Min(ID.min)
  @Max(ID.max)
  contract_id?: number;

  @ApiPropertyOptional({ example: 25000, description: 'Fixed monetary value of a one_time project' })
  @MayBeAbsent()
  @IsNumber({ allowNaN: false, allowInfinity: false, maxDecimalPlaces: 2 })
  @Min(0)
  @Max(999_999_999_999.99)
  estimated?: number;

  @ApiPropertyOptional({
    example: 1.08,
    description: 'Exchange rate when the project currency differs from the base',
  })
  @MayBeAbsent()
  @IsNumber({ allowNaN: false, allowInfinity: false, maxDecimalPlaces: 6 })
  @Min(0)
  @Max(99_999_999)
  exchange?: number;

  @ApiPropertyOptional({
    example: 23148.15,
    description: 'Original amount in the selected currency before conversion',
  })
  @MayBeAbsent()
  @IsNumber({ allowNaN: false, allowInfinity: false, maxDecimalPlaces: 2 })
  @Min(0)
  @Max(999_999_999_999.99)
  currency_change_amount?: number;
}

/** `PUT /projects/{project_id}`: only the fields sent change. */
export class UpdateProjectDto extends PartialType(CreateProjectDto, { skipNullProperties: false }) {}

/** `GET /projects/search-by-name/{project_name}`. */
export class SearchByNameParamsDto {
  @ApiProperty({ example: 'spring', description: 'Text the name contains (case-insensitive)' })
  @IsString()
  @Matches(/\S/, { message: 'project_name must not be blank' })
  @Length(1, 200, { message: 'project_name must be 1 to 200 characters' })
  project_name!: string;
}
