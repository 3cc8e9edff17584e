import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import {
  API_TIMESTAMP,
  formatNullableTimestamp,
  formatTimestamp,
  IsEntityId,
  MayBeAbsent,
  API_ROW_VERSION,
} from '@platform/contracts';
import { IsString, Length, MaxLength } from 'class-validator';
import type { Brand } from '../brand.entity';

export class CreateBrandDto {
  @ApiProperty({ example: 7, description: 'A client of your company' })
  @IsEntityId()
  client_id!: number;

  @ApiProperty({ example: 'Northwind Organic', minLength: 1, maxLength: 200 })
  @IsString()
  @Length(1, 200)
  name!: string;

  @ApiPropertyOptional({ example: 'Premium organic line' })
  @MayBeAbsent()
  @IsString()
  @MaxLength(2000)
  description?: string;
}

export class UpdateBrandDto extends PartialType(CreateBrandDto, { skipNullProperties: false }) {}

export class BrandDto {
  @ApiProperty({ example: 4 })
  id!: number;

  @ApiProperty(API_ROW_VERSION)
  version!: number;

  @ApiProperty({ example: 3 })
  company_id!: number;

  @ApiProperty({ example: 7 })
  client_id!: number;

  @ApiProperty({ example: 'Northwind Organic' })
  name!: string;

  @ApiProperty({ example: 'Premium organic line', nullable: true, type: String })
  description!: string | null;

  @ApiProperty({ ...API_TIMESTAMP, example: '2026-11-22 10:15:00' })
  created_at!: string;

  @ApiProperty({ ...API_TIMESTAMP, example: '2026-11-22 10:15:00' })
  updated_at!: string;

  @ApiProperty({ ...API_TIMESTAMP, example: null, nullable: true, type: String })
  deleted_at!: string | null;

  static from(brand: Brand): BrandDto {
    return {
      id: brand.id,
      version: brand.version,
      company_id: brand.companyId,
      client_id: brand.clientId,
      name: brand.name,
      description: brand.description,
      created_at: formatTimestamp(brand.createdAt),
      updated_at: formatTimestamp(brand.updatedAt),
      deleted_at: formatNullableTimestamp(brand.deletedAt),
    };
  }
}
