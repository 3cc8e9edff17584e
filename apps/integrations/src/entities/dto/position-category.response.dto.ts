import { ApiProperty } from '@nestjs/swagger';
import { DeletedResponseOf } from './deleted-response';

/** A position category as integrations answers it: main-api's, timestamps in ISO 8601 UTC. */
export class PositionCategoryResponseDto {
  @ApiProperty({ type: 'integer', example: 2, description: 'Platform id' })
  id!: number;

  @ApiProperty({ type: String, example: 'Creative' })
  name!: string;

  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-22T10:15:00.000Z' })
  created_at!: string;

  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-22T10:15:00.000Z' })
  updated_at!: string;
}

/** The answer to a delete: the deleted category, or only its id when main-api no longer had it. */
export class DeletedPositionCategoryResponseDto extends DeletedResponseOf(PositionCategoryResponseDto) {}
