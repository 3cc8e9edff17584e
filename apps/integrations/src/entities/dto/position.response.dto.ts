import { ApiProperty } from '@nestjs/swagger';
import { DeletedResponseOf } from './deleted-response';

/** A position as integrations answers it: main-api's position, timestamps in ISO 8601 UTC. */
export class PositionResponseDto {
  @ApiProperty({ type: 'integer', example: 5, description: 'Platform id (the unified position id)' })
  id!: number;

  @ApiProperty({ type: String, example: 'Designer' })
  name!: string;

  @ApiProperty({ type: 'integer', nullable: true, example: 2, description: 'Platform id of its category' })
  category_id!: number | null;

  @ApiProperty({ type: String, nullable: true, example: 'Creative' })
  category_name!: string | null;

  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-22T10:15:00.000Z' })
  created_at!: string;

  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-22T10:15:00.000Z' })
  updated_at!: string;
}

/** The answer to a delete: the deleted position, or only its id when main-api no longer had it. */
export class DeletedPositionResponseDto extends DeletedResponseOf(PositionResponseDto) {}
