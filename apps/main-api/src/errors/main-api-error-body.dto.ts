import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { MAIN_API_ERROR_NAME, MainApiErrorCode } from './main-api-error-code';

export class FieldErrorDto {
  @ApiProperty({ example: 'name', description: 'Path of the offending field (dots for nesting).' })
  field!: string;

  @ApiProperty({ example: 'isNotEmpty', description: 'Name of the rule that failed.' })
  validation!: string;

  @ApiProperty({ example: 'name should not be empty' })
  message!: string;
}

/** main-api error body (docs/spec/decisions.md §4). */
export class MainApiErrorBodyDto {
  @ApiProperty({ type: 'integer', minimum: 400, maximum: 599, example: 400, description: 'The HTTP status' })
  status!: number;

  @ApiProperty({ enum: [MAIN_API_ERROR_NAME], example: MAIN_API_ERROR_NAME })
  name!: string;

  @ApiProperty({ enum: MainApiErrorCode, enumName: 'MainApiErrorCode', example: 'AC002' })
  code!: string;

  @ApiProperty({ example: 'Request validation failed' })
  message!: string;

  @ApiPropertyOptional({ type: [FieldErrorDto] })
  errors?: FieldErrorDto[];
}
