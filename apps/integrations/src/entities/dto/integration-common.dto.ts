import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { INTEGRATION_SOURCES, IntegrationSource, MayBeAbsent } from '@platform/contracts';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDefined,
  IsIn,
  IsObject,
  IsString,
  Length,
  Matches,
  ValidateNested,
} from 'class-validator';
import { applyDecorators } from '@nestjs/common';

const SOURCES_MESSAGE = `metadata.source must be one of ${INTEGRATION_SOURCES.join(', ')}`;

export class IntegrationMetadataDto {
  @ApiProperty({ enum: IntegrationSource, example: IntegrationSource.Jira })
  @IsIn(INTEGRATION_SOURCES, { message: SOURCES_MESSAGE })
  source!: IntegrationSource;
}

/** An external system's id: 1-255 characters, no surrounding spaces. */
export const IsExternalId = (field: string): PropertyDecorator =>
  applyDecorators(
    IsString({ message: `${field} must be the external id, a string` }),
    Length(1, 255, { message: `${field} must be 1 to 255 characters` }),
    Matches(/^\S(.*\S)?$/, { message: `${field} must not start or end with spaces` }),
  );

/** `metadata` is in every integrations body (interfaces.md rule 1). */
export class WithMetadataDto {
  @ApiProperty({ type: IntegrationMetadataDto })
  @IsDefined({ message: `metadata is required: {source: one of ${INTEGRATION_SOURCES.join(', ')}}` })
  @IsObject({ message: 'metadata must be an object {source}' })
  @ValidateNested()
  @Type(() => IntegrationMetadataDto)
  metadata!: IntegrationMetadataDto;
}

/** Creates carry the external system's own id for the new entity. */
export class ExternalCreateDto extends WithMetadataDto {
  @ApiProperty({ example: 'EXT-42', description: "The external system's id of the entity" })
  @IsExternalId('id')
  id!: string;
}

/** `POST` / `DELETE /{contracts|teams}/{external_id}/users`. */
export class ExternalUsersDto extends WithMetadataDto {
  @ApiProperty({ example: ['U-1', 'U-2'], type: [String], description: 'External user ids (same source)' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(500)
  @IsString({ each: true, message: 'users must be external user ids (strings)' })
  @Length(1, 255, { each: true, message: 'each of users must be 1 to 255 characters' })
  users!: string[];
}

/** `DELETE` bodies are optional: `metadata.source` may come as `?source=` instead. */
export class ExternalDeleteDto {
  @ApiPropertyOptional({ type: IntegrationMetadataDto })
  @MayBeAbsent()
  @IsObject({ message: 'metadata must be an object {source}' })
  @ValidateNested()
  @Type(() => IntegrationMetadataDto)
  metadata?: IntegrationMetadataDto;
}

export class SourceQueryDto {
  @ApiPropertyOptional({ enum: IntegrationSource, description: 'metadata.source, for bodiless DELETEs' })
  @MayBeAbsent()
  @IsIn(INTEGRATION_SOURCES, { message: SOURCES_MESSAGE.replace('metadata.source', 'source') })
  source?: IntegrationSource;
}
