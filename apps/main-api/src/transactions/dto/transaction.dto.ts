import { API_DATE, IsDateOnly, IsEntityId, MayBeAbsent, API_ROW_VERSION } from '@platform/contracts';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsInt, IsNumber, IsString, Length, Max, Min } from 'class-validator';
import { TRANSACTION_TYPES, type Transaction, type TransactionType } from '../transaction.entity';

const MONEY = { allowNaN: false, allowInfinity: false, maxDecimalPlaces: 2 } as const;
const MAX_MONEY = 999_999_999_999.99;

/** docs/spec/interfaces.md "Transaction" request fields. */
export class CreateTransactionDto {
  @ApiProperty({ example: '2026-11-20', description: 'YYYY-MM-DD' })
  @IsDateOnly()
  date!: string;

  @ApiProperty({ enum: TRANSACTION_TYPES, example: 'invoice' })
  @IsIn(TRANSACTION_TYPES)
  type!: TransactionType;

  @ApiProperty({ example: 1500.5 })
  @IsNumber(MONEY)
  @Min(-MAX_MONEY)
  @Max(MAX_MONEY)
  total!: number;

  @ApiProperty({ example: 1500.5, description: 'total in the company base currency' })
  @IsNumber(MONEY)
  @Min(-MAX_MONEY)
  @Max(MAX_MONEY)
  currency_change_amount!: number;

  @ApiProperty({ example: 1, description: 'exchange rate to the base currency' })
  @IsNumber({ allowNaN: false, allowInfinity: false, maxDecimalPlaces: 6 })
  @Min(0)
  @Max(99_999_999)
  exchange!: number;

  @ApiProperty({ example: 1, description: '1 Manual, 2 Bank import, 3 Invoice, 4 Integration' })
  @IsInt()
  @Min(1)
  @Max(4)
  source_id!: number;

  @ApiProperty({ example: 1, description: 'Currency id 1-10' })
  @IsInt()
  @Min(1)
  @Max(10)
  currency_id!: number;

  @ApiProperty({ example: 'INV-2026-0042' })
  @IsString()
  @Length(1, 100)
  receipt_number!: string;

  @ApiProperty({ example: true })
  @IsBoolean()
  is_income!: boolean;

  @ApiProperty({ example: 7, description: 'A client of your company' })
  @IsEntityId()
  client_id!: number;

  @ApiPropertyOptional({ example: 1, description: "Must be your token's company when sent" })
  @MayBeAbsent()
  @IsInt()
  company_id?: number;

  @ApiPropertyOptional({ description: 'Accepted for compatibility; never stored or returned' })
  @MayBeAbsent()
  @IsBoolean()
  can_update?: boolean;

  @ApiPropertyOptional({ description: 'Accepted for compatibility; never stored or returned' })
  @MayBeAbsent()
  @IsBoolean()
  can_delete?: boolean;
}

/** docs/spec/interfaces.md "Transaction" response fields (no can_update / can_delete). */
export class TransactionDto {
  @ApiProperty({ example: 31 })
  id!: number;

  @ApiProperty(API_ROW_VERSION)
  version!: number;

  @ApiProperty({ ...API_DATE, example: '2026-11-20' })
  date!: string;

  @ApiProperty({ enum: TRANSACTION_TYPES })
  type!: TransactionType;

  @ApiProperty({ example: 1500.5 })
  total!: number;

  @ApiProperty({ example: 1500.5 })
  currency_change_amount!: number;

  @ApiProperty({ example: 1 })
  exchange!: number;

  @ApiProperty({ example: 1 })
  source_id!: number;

  @ApiProperty({ example: 1 })
  currency_id!: number;

  @ApiProperty({ example: 'INV-2026-0042' })
  receipt_number!: string;

  @ApiProperty({ example: true })
  is_income!: boolean;

  @ApiProperty({ example: 7 })
  client_id!: number;

  @ApiProperty({ example: 1 })
  company_id!: number;

  static from(transaction: Transaction): TransactionDto {
    return {
      id: transaction.id,
      version: transaction.version,
      date: transaction.date,
      type: transaction.type,
      total: Number(transaction.total),
      currency_change_amount: Number(transaction.currencyChangeAmount),
      exchange: Number(transaction.exchange),
      source_id: transaction.sourceId,
      currency_id: transaction.currencyId,
      receipt_number: transaction.receiptNumber,
      is_income: transaction.isIncome,
      client_id: transaction.clientId,
      company_id: transaction.companyId,
    };
  }
}
