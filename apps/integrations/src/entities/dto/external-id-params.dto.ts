import { ApiProperty } from '@nestjs/swagger';
import { IsExternalId } from './integration-common.dto';

export class ExternalIdParamsDto {
  @ApiProperty({ example: 'EXT-42', description: "The external system's id" })
  @IsExternalId('external_id')
  external_id!: string;
}
