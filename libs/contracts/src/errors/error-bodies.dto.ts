import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class FieldErrorDto {
  @ApiProperty({ example: 'name', description: 'Path of the offending field (dots for nesting).' })
  field!: string;

  @ApiProperty({ example: 'isNotEmpty', description: 'Name of the rule that failed.' })
  validation!: string;

  @ApiProperty({ example: 'name should not be empty' })
  message!: string;
}

/** main-api error body (decisions §4). */
export class MainApiErrorBodyDto {
  @ApiProperty({ example: 400 })
  status!: number;

  @ApiProperty({ example: 'PlatformCustomError' })
  name!: string;

  @ApiProperty({ example: 'AC002' })
  code!: string;

  @ApiProperty({ example: 'Request validation failed' })
  message!: string;

  @ApiPropertyOptional({ type: [FieldErrorDto] })
  errors?: FieldErrorDto[];
}

/** Planner error body `{error, message}` (interfaces.md "Allocation error body"). */
export class PlannerErrorBodyDto {
  @ApiProperty({ example: 'InvalidAllocationError' })
  error!: string;

  @ApiProperty({ example: '`to` must be after `from`' })
  message!: string;
}

/** Integrations error body `{error, message, code}`. */
export class IntegrationsErrorBodyDto {
  @ApiProperty({ example: 'ValidationError' })
  error!: string;

  @ApiProperty({ example: 'metadata.source is required' })
  message!: string;

  @ApiProperty({ example: 'ZC002' })
  code!: string;
}
