import { IsCurrencyId, IsEmailAddress, MayBeAbsent } from '@platform/contracts';
import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { IsBoolean, IsString, Length, MaxLength } from 'class-validator';

export class CreateClientDto {
  @ApiProperty({ example: 'Northwind Foods', minLength: 1, maxLength: 200 })
  @IsString()
  @Length(1, 200)
  name!: string;

  @ApiPropertyOptional({ example: 'marketing@northwind.example' })
  @MayBeAbsent()
  @IsEmailAddress()
  email?: string;

  @ApiPropertyOptional({ example: '+1 555 0100' })
  @MayBeAbsent()
  @IsString()
  @MaxLength(50)
  phone?: string;

  @ApiPropertyOptional({ example: '1 Main St, Springfield' })
  @MayBeAbsent()
  @IsString()
  @MaxLength(500)
  address?: string;

  @ApiPropertyOptional({ example: 'US-12-3456789' })
  @MayBeAbsent()
  @IsString()
  @MaxLength(50)
  tax_id?: string;

  @ApiPropertyOptional({ example: 1, description: 'Currency id 1-10 (GET /v1/currencies); default 1' })
  @MayBeAbsent()
  @IsCurrencyId()
  currency_id?: number;

  @ApiPropertyOptional({ example: false })
  @MayBeAbsent()
  @IsBoolean()
  archived?: boolean;
}

/** Partial update: only the fields sent change. */
export class UpdateClientDto extends PartialType(CreateClientDto, { skipNullProperties: false }) {}
