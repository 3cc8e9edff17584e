import { ApiProperty } from '@nestjs/swagger';
import {
  API_EMAIL,
  API_TIMESTAMP,
  formatNullableTimestamp,
  formatTimestamp,
  API_ROW_VERSION,
} from '@platform/contracts';
import type { Client } from '../client.entity';

export class ClientDto {
  @ApiProperty({ example: 7 })
  id!: number;

  @ApiProperty(API_ROW_VERSION)
  version!: number;

  @ApiProperty({ example: 3 })
  company_id!: number;

  @ApiProperty({ example: 'Northwind Foods' })
  name!: string;

  @ApiProperty({ ...API_EMAIL, example: 'marketing@northwind.example', nullable: true, type: String })
  email!: string | null;

  @ApiProperty({ example: '+1 555 0100', nullable: true, type: String })
  phone!: string | null;

  @ApiProperty({ example: '1 Main St, Springfield', nullable: true, type: String })
  address!: string | null;

  @ApiProperty({ example: 'US-12-3456789', nullable: true, type: String })
  tax_id!: string | null;

  @ApiProperty({ example: 1, description: 'Currency id (GET /v1/currencies)' })
  currency_id!: number;

  @ApiProperty({ example: false })
  archived!: boolean;

  @ApiProperty({ ...API_TIMESTAMP, example: '2026-11-22 10:15:00', description: 'UTC, YYYY-MM-DD HH:mm:ss' })
  created_at!: string;

  @ApiProperty({ ...API_TIMESTAMP, example: '2026-11-22 10:15:00' })
  updated_at!: string;

  @ApiProperty({ ...API_TIMESTAMP, example: null, nullable: true, type: String })
  deleted_at!: string | null;

  static from(client: Client): ClientDto {
    return {
      id: client.id,
      version: client.version,
      company_id: client.companyId,
      name: client.name,
      email: client.email,
      phone: client.phone,
      address: client.address,
      tax_id: client.taxId,
      currency_id: client.currencyId,
      archived: client.archived,
      created_at: formatTimestamp(client.createdAt),
      updated_at: formatTimestamp(client.updatedAt),
      deleted_at: formatNullableTimestamp(client.deletedAt),
    };
  }
}
