import { ApiProperty } from '@nestjs/swagger';
import { DeletedResponseOf } from './deleted-response';

export class ContractCurrencyResponseDto {
  @ApiProperty({ type: 'integer', example: 1 })
  id!: number;

  @ApiProperty({ type: String, example: 'US dollar' })
  name!: string;
}

/**
 * A contract as integrations answers it (interfaces.md "Contract (returned by delete)", with its
 * users): main-api's contract, `start`, `end` and timestamps in ISO 8601 UTC.
 */
export class ContractResponseDto {
  @ApiProperty({ type: 'integer', example: 5, description: 'Platform id' })
  id!: number;

  @ApiProperty({ type: 'integer', example: 7, description: 'Platform id of the client' })
  client_id!: number;

  @ApiProperty({ type: 'integer', example: 3 })
  company_id!: number;

  @ApiProperty({ type: 'integer', example: 1 })
  currency_id!: number;

  @ApiProperty({ type: 'integer', nullable: true, example: null, description: 'Ratecard id' })
  user_positions_header_id!: number | null;

  @ApiProperty({ type: 'object', additionalProperties: true, example: {} })
  json_integrations!: Record<string, unknown>;

  @ApiProperty({ type: String, example: 'Master services agreement' })
  name!: string;

  @ApiProperty({ type: String, example: 'retainer' })
  type!: string;

  @ApiProperty({ type: String, example: '' })
  source!: string;

  @ApiProperty({ type: String, example: 'active' })
  status!: string;

  @ApiProperty({ type: String, example: 'monthly' })
  frequency!: string;

  @ApiProperty({ type: String, example: '' })
  url!: string;

  @ApiProperty({ type: String, example: '' })
  url_name!: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: '2026-01-01T00:00:00.000Z' })
  start!: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: '2026-12-31T00:00:00.000Z' })
  end!: string | null;

  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-22T10:15:00.000Z' })
  created_at!: string;

  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-22T10:15:00.000Z' })
  updated_at!: string;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    example: null,
    description: 'Set once the contract is deleted (soft delete)',
  })
  deleted_at!: string | null;

  @ApiProperty({ type: ContractCurrencyResponseDto })
  currency!: ContractCurrencyResponseDto;

  @ApiProperty({ type: 'integer', isArray: true, example: [3, 8], description: 'Platform ids of its users' })
  user_ids!: number[];
}

/** The answer to a delete: the deleted contract, or only its id when main-api no longer had it. */
export class DeletedContractResponseDto extends DeletedResponseOf(ContractResponseDto) {}
