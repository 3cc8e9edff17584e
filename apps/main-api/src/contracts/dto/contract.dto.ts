import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import {
  API_TIMESTAMP,
  formatNullableTimestamp,
  formatTimestamp,
  IsCurrencyId,
  IsDateOrUtcDateTime,
  IsEntityId,
  MayBeAbsent,
  MayBeAbsentOrNull,
  API_ROW_VERSION,
} from '@platform/contracts';
import { IsObject, IsString, Length, MaxLength } from 'class-validator';
import type { Contract } from '../contract.entity';

export class CreateContractDto {
  @ApiProperty({ example: 7, description: 'A client of your company' })
  @IsEntityId()
  client_id!: number;

  @ApiProperty({ example: 'Master services agreement 2026', maxLength: 200 })
  @IsString()
  @Length(1, 200)
  name!: string;

  @ApiPropertyOptional({ example: 1, description: 'Currency id 1-10; default 1' })
  @MayBeAbsent()
  @IsCurrencyId()
  currency_id?: number;

  @ApiPropertyOptional({ example: 3, nullable: true, type: Number })
  @MayBeAbsentOrNull()
  @IsEntityId()
  user_positions_header_id?: number | null;

  @ApiPropertyOptional({ example: { hubspot_deal: '1234' } })
  @MayBeAbsent()
  @IsObject()
  json_integrations?: Record<string, unknown>;

  @ApiPropertyOptional({ example: 'retainer' })
  @MayBeAbsent()
  @IsString()
  @MaxLength(50)
  type?: string;

  @ApiPropertyOptional({ example: 'manual' })
  @MayBeAbsent()
  @IsString()
  @MaxLength(50)
  source?: string;

  @ApiPropertyOptional({ example: 'active' })
  @MayBeAbsent()
  @IsString()
  @MaxLength(30)
  status?: string;

  @ApiPropertyOptional({ example: 'monthly' })
  @MayBeAbsent()
  @IsString()
  @MaxLength(30)
  frequency?: string;

  @ApiPropertyOptional({ example: 'https://drive.example/msa.pdf' })
  @MayBeAbsent()
  @IsString()
  @MaxLength(2000)
  url?: string;

  @ApiPropertyOptional({ example: 'MSA (PDF)' })
  @MayBeAbsent()
  @IsString()
  @MaxLength(200)
  url_name?: string;

  @ApiPropertyOptional({ example: '2026-01-01T00:00:00Z', description: 'YYYY-MM-DD or UTC date-time' })
  @MayBeAbsent()
  @IsDateOrUtcDateTime()
  start?: string;

  @ApiPropertyOptional({ example: '2026-12-31T23:59:59Z' })
  @MayBeAbsent()
  @IsDateOrUtcDateTime()
  end?: string;
}

export class UpdateContractDto extends PartialType(CreateContractDto, { skipNullProperties: false }) {}

class CurrencyRefDto {
  @ApiProperty({ example: 1 })
  id!: number;

  @ApiProperty({ example: 'US dollar' })
  name!: string;
}

/** docs/spec/interfaces.md "Contract (returned by delete)", plus the assigned users. */
export class ContractDto {
  @ApiProperty({ example: 5 })
  id!: number;

  @ApiProperty(API_ROW_VERSION)
  version!: number;

  @ApiProperty({ example: 7 })
  client_id!: number;

  @ApiProperty({ example: 1 })
  company_id!: number;

  @ApiProperty({ example: 1 })
  currency_id!: number;

  @ApiProperty({ example: 3, nullable: true, type: Number })
  user_positions_header_id!: number | null;

  @ApiProperty({ example: {} })
  json_integrations!: Record<string, unknown>;

  @ApiProperty({ example: 'Master services agreement 2026' })
  name!: string;

  @ApiProperty({ example: 'retainer' })
  type!: string;

  @ApiProperty({ example: 'manual' })
  source!: string;

  @ApiProperty({ example: 'active' })
  status!: string;

  @ApiProperty({ example: 'monthly' })
  frequency!: string;

  @ApiProperty({ example: 'https://drive.example/msa.pdf' })
  url!: string;

  @ApiProperty({ example: 'MSA (PDF)' })
  url_name!: string;

  @ApiProperty({ ...API_TIMESTAMP, example: '2026-01-01 00:00:00', nullable: true, type: String })
  start!: string | null;

  @ApiProperty({ ...API_TIMESTAMP, example: '2026-12-31 23:59:59', nullable: true, type: String })
  end!: string | null;

  @ApiProperty({ ...API_TIMESTAMP, example: '2026-11-22 10:15:00' })
  created_at!: string;

  @ApiProperty({ ...API_TIMESTAMP, example: '2026-11-22 10:15:00' })
  updated_at!: string;

  @ApiProperty({ ...API_TIMESTAMP, example: null, nullable: true, type: String })
  deleted_at!: string | null;

  @ApiProperty({ type: CurrencyRefDto })
  currency!: CurrencyRefDto;

  @ApiProperty({ example: [3, 8], type: [Number] })
  user_ids!: number[];

  static from(contract: Contract): ContractDto {
    return {
      id: contract.id,
      version: contract.version,
      client_id: contract.clientId,
      company_id: contract.companyId,
      currency_id: contract.currencyId,
      user_positions_header_id: contract.userPositionsHeaderId,
      json_integrations: contract.jsonIntegrations,
      name: contract.name,
      type: contract.type,
      source: contract.source,
      status: contract.status,
      frequency: contract.frequency,
      url: contract.url,
      url_name: contract.urlName,
      start: formatNullableTimestamp(contract.start),
      end: formatNullableTimestamp(contract.end),
      created_at: formatTimestamp(contract.createdAt),
      updated_at: formatTimestamp(contract.updatedAt),
      deleted_at: formatNullableTimestamp(contract.deletedAt),
      currency: { id: contract.currency?.id ?? contract.currencyId, name: contract.currency?.name ?? '' },
      user_ids: (contract.members ?? []).map((member) => member.userId).sort((a, b) => a - b),
    };
  }
}
