import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { API_TIMESTAMP, formatTimestamp, MayBeAbsent, API_ROW_VERSION } from '@platform/contracts';
import { IsBoolean, IsString, Length, MaxLength } from 'class-validator';
import type { Workspace } from '../workspace.entity';

export class CreateWorkspaceDto {
  @ApiProperty({ example: 'Buenos Aires studio', maxLength: 200 })
  @IsString()
  @Length(1, 200)
  name!: string;

  @ApiPropertyOptional({ example: true, description: 'Default true' })
  @MayBeAbsent()
  @IsBoolean()
  active?: boolean;

  @ApiPropertyOptional({ example: 'Latin America accounts' })
  @MayBeAbsent()
  @IsString()
  @MaxLength(2000)
  description?: string;
}

export class UpdateWorkspaceDto extends PartialType(CreateWorkspaceDto, { skipNullProperties: false }) {}

/** The workspace response fields of docs/spec/interfaces.md. */
export class WorkspaceDto {
  @ApiProperty({ example: 3 })
  id!: number;

  @ApiProperty(API_ROW_VERSION)
  version!: number;

  @ApiProperty({ example: 'Buenos Aires studio' })
  name!: string;

  @ApiProperty({ example: true })
  active!: boolean;

  @ApiProperty({ example: 'Latin America accounts', nullable: true, type: String })
  description!: string | null;

  @ApiProperty({ example: 1 })
  company_id!: number;

  @ApiProperty({ ...API_TIMESTAMP, example: '2026-11-22 10:15:00' })
  created_at!: string;

  @ApiProperty({ ...API_TIMESTAMP, example: '2026-11-22 10:15:00' })
  updated_at!: string;

  static from(workspace: Workspace): WorkspaceDto {
    return {
      id: workspace.id,
      version: workspace.version,
      name: workspace.name,
      active: workspace.active,
      description: workspace.description,
      company_id: workspace.companyId,
      created_at: formatTimestamp(workspace.createdAt),
      updated_at: formatTimestamp(workspace.updatedAt),
    };
  }
}
