import { ApiProperty } from '@nestjs/swagger';
import { IntegrationEntity, IntegrationSource } from '@platform/contracts';

/** Which platform entity an external system's id stands for. */
export class ExternalMappingDto {
  @ApiProperty({ enum: IntegrationSource, example: IntegrationSource.Jira })
  source!: IntegrationSource;

  @ApiProperty({ enum: IntegrationEntity, example: IntegrationEntity.Projects })
  entity!: IntegrationEntity;

  @ApiProperty({ example: 'PROJ-42' })
  external_id!: string;

  @ApiProperty({
    example: 17,
    nullable: true,
    type: Number,
    description: 'main-api id; null while the entity is being created',
  })
  platform_id!: number | null;

  @ApiProperty({ enum: ['pending', 'complete'] })
  state!: 'pending' | 'complete';

  @ApiProperty({ example: '2026-11-22T10:15:00.000Z', description: 'ISO 8601, UTC' })
  created_at!: string;
}
