import { ApiProperty } from '@nestjs/swagger';

/** interfaces.md "Workspace (integrations)": exactly these response fields. */
export class WorkspaceResponseDto {
  @ApiProperty({ type: 'integer', example: 3, description: 'Platform id' })
  id!: number;

  @ApiProperty({ type: String, example: 'Studio' })
  name!: string;

  @ApiProperty({ type: Boolean, example: true })
  active!: boolean;

  @ApiProperty({ type: String, nullable: true, example: 'The London studio' })
  description!: string | null;

  @ApiProperty({ type: 'integer', example: 3 })
  company_id!: number;

  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-22T10:15:00.000Z' })
  created_at!: string;

  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-22T10:15:00.000Z' })
  updated_at!: string;
}
