import { ApiProperty } from '@nestjs/swagger';

/** A team as integrations answers it: main-api's team, timestamps in ISO 8601 UTC. */
export class TeamResponseDto {
  @ApiProperty({ type: 'integer', example: 2, description: 'Platform id' })
  id!: number;

  @ApiProperty({ type: 'integer', example: 3 })
  company_id!: number;

  @ApiProperty({ type: String, example: 'Pod A' })
  name!: string;

  @ApiProperty({ type: String, nullable: true, example: 'Brand team' })
  description!: string | null;

  @ApiProperty({ type: 'integer', isArray: true, example: [3, 8], description: 'Platform ids of its users' })
  user_ids!: number[];

  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-22T10:15:00.000Z' })
  created_at!: string;

  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-22T10:15:00.000Z' })
  updated_at!: string;
}
