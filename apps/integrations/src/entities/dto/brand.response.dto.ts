import { ApiProperty } from '@nestjs/swagger';
import { DeletedResponseOf } from './deleted-response';

/** A brand as integrations answers it: main-api's brand, timestamps in ISO 8601 UTC. */
export class BrandResponseDto {
  @ApiProperty({ type: 'integer', example: 4, description: 'Platform id' })
  id!: number;

  @ApiProperty({ type: 'integer', example: 3 })
  company_id!: number;

  @ApiProperty({ type: 'integer', example: 7, description: 'Platform id of the client' })
  client_id!: number;

  @ApiProperty({ type: String, example: 'Organic' })
  name!: string;

  @ApiProperty({ type: String, nullable: true, example: 'The organic line' })
  description!: string | null;

  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-22T10:15:00.000Z' })
  created_at!: string;

  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-22T10:15:00.000Z' })
  updated_at!: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: null })
  deleted_at!: string | null;
}

/** The answer to a delete: the deleted brand, or only its id when main-api no longer had it. */
export class DeletedBrandResponseDto extends DeletedResponseOf(BrandResponseDto) {}
