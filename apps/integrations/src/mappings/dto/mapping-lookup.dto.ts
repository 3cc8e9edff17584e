import { ApiProperty } from '@nestjs/swagger';
import {
  INTEGRATION_ENTITIES,
  INTEGRATION_SOURCES,
  IntegrationEntity,
  IntegrationSource,
} from '@platform/contracts';
import { IsIn, IsString, Length, Matches } from 'class-validator';

export class MappingLookupParamsDto {
  @ApiProperty({ enum: IntegrationEntity })
  @IsIn(INTEGRATION_ENTITIES, { message: `entity must be one of ${INTEGRATION_ENTITIES.join(', ')}` })
  entity!: IntegrationEntity;

  @ApiProperty({ example: 'PROJ-42', description: "The external system's id (1-255 characters)" })
  @IsString()
  @Length(1, 255, { message: 'external_id must be 1 to 255 characters' })
  @Matches(/^\S(.*\S)?$/, { message: 'external_id must not start or end with spaces' })
  external_id!: string;
}

export class MappingLookupQueryDto {
  @ApiProperty({ enum: IntegrationSource, description: 'metadata.source of the external system' })
  @IsIn(INTEGRATION_SOURCES, { message: `source must be one of ${INTEGRATION_SOURCES.join(', ')}` })
  source!: IntegrationSource;
}
