import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import {
  API_TIMESTAMP,
  formatTimestamp,
  IsCurrencyId,
  IsEntityId,
  MayBeAbsent,
  API_ROW_VERSION,
} from '@platform/contracts';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsNumber,
  IsString,
  Length,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import type { Ratecard } from '../ratecard.entity';

export class RatecardPriceInputDto {
  @ApiProperty({ example: 5, description: 'A position of your company (unified position id)' })
  @IsEntityId()
  position_id!: number;

  @ApiProperty({ example: 95.5, description: 'Hourly price in the ratecard currency' })
  @IsNumber({ allowNaN: false, allowInfinity: false, maxDecimalPlaces: 2 })
  @Min(0)
  @Max(9_999_999_999.99)
  price!: number;
}

export class CreateRatecardDto {
  @ApiProperty({ example: 'Standard 2026', maxLength: 200 })
  @IsString()
  @Length(1, 200)
  name!: string;

  @ApiPropertyOptional({
    example: 'Standard',
    description: 'The ratecard this one derives from; default its own name',
  })
  @MayBeAbsent()
  @IsString()
  @Length(1, 200)
  original_name?: string;

  @ApiPropertyOptional({
    example: 110,
    description: 'Percentage of the base prices when linked to them; default 100',
  })
  @MayBeAbsent()
  @IsNumber({ allowNaN: false, allowInfinity: false, maxDecimalPlaces: 2 })
  @Min(0)
  @Max(10000)
  percent?: number;

  @ApiPropertyOptional({ example: false })
  @MayBeAbsent()
  @IsBoolean()
  linked_to_base_price?: boolean;

  @ApiPropertyOptional({ example: 1, description: 'Currency id 1-10; default 1' })
  @MayBeAbsent()
  @IsCurrencyId()
  currency_id?: number;

  @ApiPropertyOptional({
    type: [RatecardPriceInputDto],
    description: 'One price per position; replaces all prices on update',
  })
  @MayBeAbsent()
  @IsArray()
  @ArrayMaxSize(1000)
  @ValidateNested({ each: true })
  @Type(() => RatecardPriceInputDto)
  prices?: RatecardPriceInputDto[];
}

export class UpdateRatecardDto extends PartialType(CreateRatecardDto, { skipNullProperties: false }) {}

class RatecardPriceDto {
  @ApiProperty({ example: 5 })
  position_id!: number;

  @ApiProperty({ example: 'Art Director', nullable: true, type: String })
  position_name!: string | null;

  @ApiProperty({ example: 95.5 })
  price!: number;
}

export class RatecardDto {
  @ApiProperty({ example: 2 })
  id!: number;

  @ApiProperty(API_ROW_VERSION)
  version!: number;

  @ApiProperty({ example: 'Standard 2026' })
  name!: string;

  @ApiProperty({ example: 'Standard' })
  original_name!: string;

  @ApiProperty({ example: 100 })
  percent!: number;

  @ApiProperty({ example: false })
  linked_to_base_price!: boolean;

  @ApiProperty({ example: 1 })
  currency_id!: number;

  @ApiProperty({ type: [RatecardPriceDto] })
  prices!: RatecardPriceDto[];

  @ApiProperty({ ...API_TIMESTAMP, example: '2026-11-22 10:15:00' })
  created_at!: string;

  @ApiProperty({ ...API_TIMESTAMP, example: '2026-11-22 10:15:00' })
  updated_at!: string;

  static from(ratecard: Ratecard): RatecardDto {
    return {
      id: ratecard.id,
      version: ratecard.version,
      name: ratecard.name,
      original_name: ratecard.originalName,
      percent: Number(ratecard.percent),
      linked_to_base_price: ratecard.linkedToBasePrice,
      currency_id: ratecard.currencyId,
      prices: (ratecard.prices ?? [])
        .map((price) => ({
          position_id: price.positionId,
          position_name: price.position?.name ?? null,
          price: Number(price.price),
        }))
        .sort((a, b) => a.position_id - b.position_id),
      created_at: formatTimestamp(ratecard.createdAt),
      updated_at: formatTimestamp(ratecard.updatedAt),
    };
  }
}
