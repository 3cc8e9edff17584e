import { ApiProperty } from '@nestjs/swagger';
import { DeletedResponseOf } from './deleted-response';

const DATE_TIME = { type: String, format: 'date-time', example: '2026-11-22T10:15:00.000Z' } as const;

export class ProjectClientResponseDto {
  @ApiProperty({ type: 'integer', example: 7 })
  id!: number;

  @ApiProperty({ type: String, example: 'Acme Foods' })
  name!: string;

  @ApiProperty({ type: 'integer', enum: [1, 2], example: 1, description: '1 active, 2 archived' })
  client_status_id!: number;
}

export class ProjectPmResponseDto {
  @ApiProperty({ type: 'integer', example: 12 })
  id!: number;

  @ApiProperty({ type: String, example: 'Ada' })
  first_name!: string;

  @ApiProperty({ type: String, example: 'Lovelace' })
  last_name!: string;

  @ApiProperty({ type: String, example: 'ada@agency.example' })
  email!: string;

  @ApiProperty({ type: 'integer', enum: [1, 2, 3, 4, 5, 6], example: 3 })
  role_id!: number;
}

export class ProjectPositionNameResponseDto {
  @ApiProperty({ type: String, nullable: true, example: 'Designer' })
  name!: string | null;
}

export class ProjectPositionResponseDto {
  @ApiProperty({ type: 'integer', example: 31 })
  id!: number;

  @ApiProperty({ type: 'integer', example: 5, description: 'Unified position id' })
  user_positions_unified_id!: number;

  @ApiProperty({ type: 'integer', example: 88 })
  project_id!: number;

  @ApiProperty({ type: Number, example: 40 })
  estimated_hours!: number;

  @ApiProperty({ type: Number, example: 12.5 })
  hours_charged!: number;

  @ApiProperty({ type: Number, example: 1187.5 })
  total_cost!: number;

  @ApiProperty({ type: ProjectPositionNameResponseDto })
  userPositionName!: ProjectPositionNameResponseDto;
}

export class ProjectCategoryResponseDto {
  @ApiProperty({ type: 'integer', example: 8 })
  id!: number;

  @ApiProperty({ type: 'integer', example: 2 })
  category_id!: number;

  @ApiProperty({ type: Number, example: 60 })
  estimated_hours!: number;

  @ApiProperty({ type: Number, example: 20 })
  hours_charged!: number;

  @ApiProperty({ type: Number, example: 1900 })
  total_cost!: number;
}

export class ProjectRatecardResponseDto {
  @ApiProperty({ type: 'integer', example: 2 })
  id!: number;

  @ApiProperty({ type: String, example: 'Standard 2026' })
  name!: string;

  @ApiProperty({ type: String, example: 'Standard' })
  original_name!: string;

  @ApiProperty({ type: Number, example: 100 })
  percent!: number;

  @ApiProperty({ type: 'integer', example: 1 })
  currency_id!: number;

  @ApiProperty({ type: Boolean, example: false })
  linked_to_base_price!: boolean;
}

/**
 * A project as integrations answers it: main-api's project read shape (interfaces.md "Project (read
 * shape)"), with `start`, `end` and the timestamps in ISO 8601 UTC.
 */
export class ProjectResponseDto {
  @ApiProperty({ type: 'integer', example: 88, description: 'Platform id' })
  id!: number;

  @ApiProperty({ type: 'integer', example: 3 })
  company_id!: number;

  @ApiProperty({ type: 'integer', example: 7, description: 'Platform id of the client' })
  client_id!: number;

  @ApiProperty({ type: 'integer', nullable: true, example: 12 })
  pm_id!: number | null;

  @ApiProperty({ type: 'integer', nullable: true, example: 12 })
  created_by!: number | null;

  @ApiProperty({ type: 'integer', nullable: true, example: null })
  template_id!: number | null;

  @ApiProperty({ type: 'integer', nullable: true, example: 4 })
  brand_id!: number | null;

  @ApiProperty({ type: 'integer', nullable: true, example: null })
  product_id!: number | null;

  @ApiProperty({ type: 'integer', nullable: true, example: null })
  fee_id!: number | null;

  @ApiProperty({ type: 'integer', nullable: true, example: null })
  contract_id!: number | null;

  @ApiProperty({ type: String, example: 'Spring campaign' })
  name!: string;

  @ApiProperty({ type: String, example: 'Launch the spring range' })
  brief!: string;

  @ApiProperty({
    type: 'integer',
    enum: [1, 2, 3, 4],
    example: 1,
    description: '1 on track, 2 at risk, 3 delayed, 4 critical',
  })
  health!: number;

  @ApiProperty({ type: String, enum: ['active', 'finished', 'suspended'], example: 'active' })
  status!: string;

  @ApiProperty({ ...DATE_TIME, nullable: true, example: '2026-03-01T00:00:00.000Z' })
  start!: string | null;

  @ApiProperty({ ...DATE_TIME, nullable: true, example: '2026-06-30T00:00:00.000Z' })
  end!: string | null;

  @ApiProperty({ type: Number, example: 120, description: 'Estimated hours' })
  estimated_time!: number;

  @ApiProperty({ type: Boolean, example: false })
  archived!: boolean;

  @ApiProperty({ type: Boolean, example: true })
  billable!: boolean;

  @ApiProperty({
    type: String,
    nullable: true,
    enum: ['fee', 'one_time', 'hourly_rate', 'contract'],
    example: 'hourly_rate',
  })
  income_type!: string | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    example: null,
    description: 'Fixed income of a one_time project',
  })
  estimated!: number | null;

  @ApiProperty({ type: 'integer', isArray: true, example: [1, 4], description: 'Label ids' })
  labels!: number[];

  @ApiProperty({ type: Boolean, example: false })
  estimated_by_position!: boolean;

  @ApiProperty({ type: Boolean, example: false })
  estimation_by_categories!: boolean;

  @ApiProperty({ type: Boolean, example: false })
  estimated_by_hourly_rates!: boolean;

  @ApiProperty({ type: 'integer', nullable: true, example: null, description: 'Ratecard id' })
  user_positions_header_id!: number | null;

  @ApiProperty({ type: Number, nullable: true, example: null })
  exchange!: number | null;

  @ApiProperty({ type: Number, nullable: true, example: null })
  currency_change_amount!: number | null;

  @ApiProperty({ type: ProjectClientResponseDto, nullable: true })
  client!: ProjectClientResponseDto | null;

  @ApiProperty({ type: ProjectPmResponseDto, nullable: true })
  pm!: ProjectPmResponseDto | null;

  @ApiProperty(DATE_TIME)
  created_at!: string;

  @ApiProperty(DATE_TIME)
  updated_at!: string;

  @ApiProperty({ type: Number, example: 0, description: 'Hours logged on the project' })
  elapsed_time!: number;

  @ApiProperty({ type: Number, example: 0 })
  total_estimated!: number;

  @ApiProperty({ type: Number, example: 0 })
  estimated_profitability!: number;

  @ApiProperty({ type: Number, example: 0 })
  profitability_now!: number;

  @ApiProperty({ type: ProjectPositionResponseDto, isArray: true })
  usersPositionsProject!: ProjectPositionResponseDto[];

  @ApiProperty({ type: ProjectCategoryResponseDto, isArray: true })
  categoriesProject!: ProjectCategoryResponseDto[];

  @ApiProperty({ type: ProjectRatecardResponseDto, nullable: true })
  ratecard!: ProjectRatecardResponseDto | null;
}

/**
 * The answer to a delete: main-api keeps projects (it has no project delete), so the answer is the
 * platform id whose mapping was removed; the other fields appear only if main-api answers them.
 */
export class DeletedProjectResponseDto extends DeletedResponseOf(ProjectResponseDto) {}
