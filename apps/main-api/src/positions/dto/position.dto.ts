import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import {
  API_TIMESTAMP,
  formatTimestamp,
  IsEntityId,
  MayBeAbsentOrNull,
  API_ROW_VERSION,
} from '@platform/contracts';
import { IsString, Length } from 'class-validator';
import type { PositionCategory } from '../position-category.entity';
import type { Position } from '../position.entity';

export class CreatePositionCategoryDto {
  @ApiProperty({ example: 'Creative', maxLength: 200 })
  @IsString()
  @Length(1, 200)
  name!: string;
}

export class UpdatePositionCategoryDto extends PartialType(CreatePositionCategoryDto, {
  skipNullProperties: false,
}) {}

export class PositionCategoryDto {
  @ApiProperty({ example: 2 })
  id!: number;

  @ApiProperty(API_ROW_VERSION)
  version!: number;

  @ApiProperty({ example: 'Creative' })
  name!: string;

  @ApiProperty({ ...API_TIMESTAMP, example: '2026-11-22 10:15:00' })
  created_at!: string;

  @ApiProperty({ ...API_TIMESTAMP, example: '2026-11-22 10:15:00' })
  updated_at!: string;

  static from(category: PositionCategory): PositionCategoryDto {
    return {
      id: category.id,
      version: category.version,
      name: category.name,
      created_at: formatTimestamp(category.createdAt),
      updated_at: formatTimestamp(category.updatedAt),
    };
  }
}

export class CreatePositionDto {
  @ApiProperty({ example: 'Art Director', maxLength: 200 })
  @IsString()
  @Length(1, 200)
  name!: string;

  @ApiPropertyOptional({
    example: 2,
    nullable: true,
    type: Number,
    description: 'A position category of your company',
  })
  @MayBeAbsentOrNull()
  @IsEntityId()
  category_id?: number | null;
}

export class UpdatePositionDto extends PartialType(CreatePositionDto, { skipNullProperties: false }) {}

export class PositionDto {
  @ApiProperty({ example: 5, description: 'The unified position id' })
  id!: number;

  @ApiProperty(API_ROW_VERSION)
  version!: number;

  @ApiProperty({ example: 'Art Director' })
  name!: string;

  @ApiProperty({ example: 2, nullable: true, type: Number })
  category_id!: number | null;

  @ApiProperty({ example: 'Creative', nullable: true, type: String })
  category_name!: string | null;

  @ApiProperty({ ...API_TIMESTAMP, example: '2026-11-22 10:15:00' })
  created_at!: string;

  @ApiProperty({ ...API_TIMESTAMP, example: '2026-11-22 10:15:00' })
  updated_at!: string;

  static from(position: Position): PositionDto {
    return {
      id: position.id,
      version: position.version,
      name: position.name,
      category_id: position.categoryId,
      category_name: position.category?.name ?? null,
      created_at: formatTimestamp(position.createdAt),
      updated_at: formatTimestamp(position.updatedAt),
    };
  }
}
