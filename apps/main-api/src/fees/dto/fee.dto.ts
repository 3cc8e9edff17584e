import { API_DATE, IsCurrencyId, IsDateOnly, MayBeAbsent, API_ROW_VERSION } from '@platform/contracts';
import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { IsIn, IsInt, IsNumber, IsString, Length, Max, MaxLength, Min } from 'class-validator';
import { FEE_STATUSES, type Fee, type FeeStatus } from '../fee.entity';

/** docs/spec/interfaces.md "Fee" request fields. */
export class CreateFeeDto {
  @ApiProperty({ example: 'Monthly retainer', maxLength: 200 })
  @IsString()
  @Length(1, 200)
  name!: string;

  @ApiPropertyOptional({ example: 12000 })
  @MayBeAbsent()
  @IsNumber({ allowNaN: false, allowInfinity: false, maxDecimalPlaces: 2 })
  @Min(0)
  @Max(999_999_999_999.99)
  estimate?: number;

  @ApiPropertyOptional({ example: 'WO-2026-11' })
  @MayBeAbsent()
  @IsString()
  @MaxLength(100)
  work_order?: string;

  @ApiPropertyOptional({ example: 'Social media management' })
  @MayBeAbsent()
  @IsString()
  @MaxLength(2000)
  description?: string;

  @ApiPropertyOptional({ example: 1, description: 'Months between billings (1-120)' })
  @MayBeAbsent()
  @IsInt()
  @Min(1)
  @Max(120)
  frequency?: number;

  @ApiPropertyOptional({ enum: FEE_STATUSES, description: 'A new fee is always active' })
  @MayBeAbsent()
  @IsIn(FEE_STATUSES)
  status?: FeeStatus;

  @ApiPropertyOptional({ example: 80, description: 'Hours' })
  @MayBeAbsent()
  @IsNumber({ allowNaN: false, allowInfinity: false, maxDecimalPlaces: 2 })
  @Min(0)
  @Max(99_999_999)
  estimated_time?: number;

  @ApiPropertyOptional({ example: '2026-01-01' })
  @MayBeAbsent()
  @IsDateOnly()
  start?: string;

  @ApiPropertyOptional({ example: '2026-12-31' })
  @MayBeAbsent()
  @IsDateOnly()
  end?: string;

  @ApiPropertyOptional({ example: 1, description: 'Currency id 1-10; default 1' })
  @MayBeAbsent()
  @IsCurrencyId()
  currency_id?: number;
}

export class UpdateFeeDto extends PartialType(CreateFeeDto, { skipNullProperties: false }) {}

/** docs/spec/interfaces.md "Fee" response. */
export class FeeDto {
  @ApiProperty({ example: 9 })
  id!: number;

  @ApiProperty(API_ROW_VERSION)
  version!: number;

  @ApiProperty({ example: 7 })
  client_id!: number;

  @ApiProperty({ example: 'Monthly retainer' })
  name!: string;

  @ApiProperty({ example: 12000 })
  estimate!: number;

  @ApiProperty({ example: 'WO-2026-11' })
  work_order!: string;

  @ApiProperty({ example: 'Social media management' })
  description!: string;

  @ApiProperty({ type: 'integer', example: 1 })
  frequency!: number;

  @ApiProperty({ enum: FEE_STATUSES })
  status!: FeeStatus;

  @ApiProperty({ example: 80 })
  estimated_time!: number;

  @ApiProperty({ ...API_DATE, example: '2026-01-01', nullable: true, type: String })
  start!: string | null;

  @ApiProperty({ ...API_DATE, example: '2026-12-31', nullable: true, type: String })
  end!: string | null;

  @ApiProperty({ example: 1 })
  currency_id!: number;

  static from(fee: Fee): FeeDto {
    return {
      id: fee.id,
      version: fee.version,
      client_id: fee.clientId,
      name: fee.name,
      estimate: Number(fee.estimate),
      work_order: fee.workOrder,
      description: fee.description,
      frequency: fee.frequency,
      status: fee.status,
      estimated_time: Number(fee.estimatedTime),
      start: fee.start,
      end: fee.end,
      currency_id: fee.currencyId,
    };
  }
}
