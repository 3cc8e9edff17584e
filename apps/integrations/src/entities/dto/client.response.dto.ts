import { ApiProperty } from '@nestjs/swagger';
import { DeletedResponseOf } from './deleted-response';

/** A client as integrations answers it: main-api's client, timestamps in ISO 8601 UTC. */
export class ClientResponseDto {
  @ApiProperty({ type: 'integer', example: 7, description: 'Platform id' })
  id!: number;

  @ApiProperty({ type: 'integer', example: 3 })
  company_id!: number;

  @ApiProperty({ type: String, example: 'Acme Foods' })
  name!: string;

  @ApiProperty({ type: String, nullable: true, example: 'billing@acme.example' })
  email!: string | null;

  @ApiProperty({ type: String, nullable: true, example: '+44 20 7946 0000' })
  phone!: string | null;

  @ApiProperty({ type: String, nullable: true, example: '1 Market St' })
  address!: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'GB123' })
  tax_id!: string | null;

  @ApiProperty({ type: 'integer', example: 1, description: 'Platform currency id (GET /v1/currencies)' })
  currency_id!: number;

  @ApiProperty({ type: Boolean, example: false })
  archived!: boolean;

  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-22T10:15:00.000Z' })
  created_at!: string;

  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-22T10:15:00.000Z' })
  updated_at!: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: null })
  deleted_at!: string | null;
}

/** The answer to a delete: the deleted client, or only its id when main-api no longer had it. */
export class DeletedClientResponseDto extends DeletedResponseOf(ClientResponseDto) {}
