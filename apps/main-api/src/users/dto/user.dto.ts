import { ApiProperty, ApiPropertyOptional, OmitType, PartialType } from '@nestjs/swagger';
import {
  API_EMAIL,
  API_TIMESTAMP,
  formatTimestamp,
  IsEmailAddress,
  IsEntityId,
  IsEntityIdList,
  IsPersonName,
  IsRoleId,
  IsUserPicture,
  ListQueryDto,
  MayBeAbsent,
  MayBeAbsentOrNull,
  ROLE_IDS,
  API_ROW_VERSION,
} from '@platform/contracts';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsInt, IsString, Length, Max, Min } from 'class-validator';
import type { User } from '../user.entity';
import type { UserRow } from '../users.repository';

export class CreateUserDto {
  @ApiProperty({ example: 'Ada', maxLength: 100 })
  @IsPersonName()
  first_name!: string;

  @ApiProperty({ example: 'Lovelace', maxLength: 100 })
  @IsPersonName()
  last_name!: string;

  @ApiProperty({ example: 'ada@agency.example', description: 'Unique across the platform (it is the login)' })
  @IsEmailAddress()
  email!: string;

  @ApiProperty({
    type: 'integer',
    enum: [...ROLE_IDS],
    example: 4,
    description: '1 C-Level, 2 Director, 3 Project Manager, 4 Collaborator, 5 Freelancer, 6 Client',
  })
  @IsRoleId()
  role_id!: number;

  @ApiPropertyOptional({ description: 'Lets the user log in with the password grant; 12 to 200 characters' })
  @MayBeAbsent()
  @IsString()
  @Length(12, 200)
  password?: string;

  @ApiPropertyOptional({ example: 3, nullable: true, type: Number, description: 'Unified position id' })
  @MayBeAbsentOrNull()
  @IsEntityId()
  user_position_id?: number | null;

  @ApiPropertyOptional({
    example: 7,
    nullable: true,
    type: Number,
    description: 'For role 6 (Client): the client whose projects the user may read',
  })
  @MayBeAbsentOrNull()
  @IsEntityId()
  client_id?: number | null;

  @ApiPropertyOptional({ example: 'https://cdn.example/ada.png' })
  @MayBeAbsent()
  @IsUserPicture()
  picture?: string;

  @ApiPropertyOptional({ example: false })
  @MayBeAbsent()
  @IsBoolean()
  hidden?: boolean;

  @ApiPropertyOptional({ example: [1, 4], type: [Number] })
  @MayBeAbsent()
  @IsArray()
  @ArrayMaxSize(100)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(2_147_483_647, { each: true })
  labels?: number[];
}

export class UpdateUserDto extends PartialType(OmitType(CreateUserDto, ['password'] as const), {
  skipNullProperties: false,
}) {}

export class UsersListQueryDto extends ListQueryDto {
  @ApiPropertyOptional({
    example: '1,2,3',
    description:
      'Comma-separated ids (at most 500): answers those users as a plain array, deleted ones included',
  })
  @MayBeAbsent()
  @IsEntityIdList()
  @Type(() => String)
  ids?: string;
}

/** A user as frontends and the planner read it (docs/spec/decisions.md §8). */
export class UserDto {
  @ApiProperty({ example: 12 })
  id!: number;

  @ApiProperty(API_ROW_VERSION)
  version!: number;

  @ApiProperty({ example: 'Ada' })
  first_name!: string;

  @ApiProperty({ example: 'Lovelace' })
  last_name!: string;

  @ApiProperty({ ...API_EMAIL, example: 'ada@agency.example' })
  email!: string;

  @ApiProperty({
    type: 'integer',
    enum: [...ROLE_IDS],
    example: 4,
    description: '1 C-Level, 2 Director, 3 Project Manager, 4 Collaborator, 5 Freelancer, 6 Client',
  })
  role_id!: number;

  @ApiProperty({ example: 3, nullable: true, type: Number })
  user_position_id!: number | null;

  @ApiProperty({
    example: 'Designer',
    nullable: true,
    type: String,
    description: 'Null until positions are assigned',
  })
  position_name!: string | null;

  @ApiProperty({ example: 2, nullable: true, type: Number })
  category_id!: number | null;

  @ApiProperty({ example: 'Creative', nullable: true, type: String })
  category_name!: string | null;

  @ApiProperty({ example: null, nullable: true, type: Number })
  client_id!: number | null;

  @ApiProperty({ example: '' })
  picture!: string;

  @ApiProperty({ example: false })
  hidden!: boolean;

  @ApiProperty({ example: false })
  is_deleted!: boolean;

  @ApiProperty({ example: [1, 4], type: [Number] })
  labels!: number[];

  @ApiProperty({ ...API_TIMESTAMP, example: '2026-11-22 10:15:00' })
  created_at!: string;

  static from(user: User): UserDto {
    return {
      id: user.id,
      version: user.version,
      first_name: user.firstName,
      last_name: user.lastName,
      email: user.email,
      role_id: user.roleId,
      user_position_id: user.userPositionId,
      position_name: user.position?.name ?? null,
      category_id: user.position?.category?.id ?? null,
      category_name: user.position?.category?.name ?? null,
      client_id: user.clientId,
      picture: user.picture,
      hidden: user.hidden,
      is_deleted: user.deletedAt !== null,
      labels: user.labels,
      created_at: formatTimestamp(user.createdAt),
    };
  }

  /** The same answer from a row of the batch look-up (`UsersRepository.byIds`). */
  static fromRow(row: UserRow): UserDto {
    return {
      id: row.id,
      version: row.version,
      first_name: row.first_name,
      last_name: row.last_name,
      email: row.email,
      role_id: row.role_id,
      user_position_id: row.user_position_id,
      position_name: row.position_name,
      category_id: row.category_id,
      category_name: row.category_name,
      client_id: row.client_id,
      picture: row.picture,
      hidden: row.hidden,
      is_deleted: row.deleted_at !== null,
      labels: row.labels,
      created_at: formatTimestamp(row.created_at),
    };
  }
}
