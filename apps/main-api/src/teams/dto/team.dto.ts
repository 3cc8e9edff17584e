import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { API_TIMESTAMP, formatTimestamp, MayBeAbsent, API_ROW_VERSION } from '@platform/contracts';
import { IsString, Length, MaxLength } from 'class-validator';
import type { Team } from '../team.entity';

export class CreateTeamDto {
  @ApiProperty({ example: 'Pod Alpha', maxLength: 200 })
  @IsString()
  @Length(1, 200)
  name!: string;

  @ApiPropertyOptional({ example: 'Retail accounts' })
  @MayBeAbsent()
  @IsString()
  @MaxLength(2000)
  description?: string;
}

export class UpdateTeamDto extends PartialType(CreateTeamDto, { skipNullProperties: false }) {}

export class TeamDto {
  @ApiProperty({ example: 2 })
  id!: number;

  @ApiProperty(API_ROW_VERSION)
  version!: number;

  @ApiProperty({ example: 1 })
  company_id!: number;

  @ApiProperty({ example: 'Pod Alpha' })
  name!: string;

  @ApiProperty({ example: 'Retail accounts', nullable: true, type: String })
  description!: string | null;

  @ApiProperty({ example: [3, 8], type: [Number] })
  user_ids!: number[];

  @ApiProperty({ ...API_TIMESTAMP, example: '2026-11-22 10:15:00' })
  created_at!: string;

  @ApiProperty({ ...API_TIMESTAMP, example: '2026-11-22 10:15:00' })
  updated_at!: string;

  static from(team: Team): TeamDto {
    return {
      id: team.id,
      version: team.version,
      company_id: team.companyId,
      name: team.name,
      description: team.description,
      user_ids: (team.members ?? []).map((member) => member.userId).sort((a, b) => a - b),
      created_at: formatTimestamp(team.createdAt),
      updated_at: formatTimestamp(team.updatedAt),
    };
  }
}
