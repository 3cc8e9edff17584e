import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { Permission, RequirePermission } from '@platform/auth';
import { ReferenceDataRepository } from './reference-data.repository';

class ReferenceItemDto {
  @ApiProperty({ example: 1 })
  id!: number;

  @ApiProperty({ example: 'Vacation' })
  name!: string;
}

class CurrencyDto extends ReferenceItemDto {
  @ApiProperty({ example: 'USD' })
  code!: string;
}

@ApiTags('reference data')
@RequirePermission(Permission.ReadProjects)
@Controller()
export class ReferenceDataController {
  constructor(private readonly referenceData: ReferenceDataRepository) {}

  @Get('currencies')
  @ApiOperation({
    summary: 'Currencies (1 USD, 2 EUR, 3 GBP, 4 ARS, 5 MXN, 6 CLP, 7 COP, 8 BRL, 9 PEN, 10 UYU)',
  })
  @ApiOkResponse({ type: [CurrencyDto] })
  currencies(): Promise<CurrencyDto[]> {
    return this.referenceData.currencies();
  }

  @Get('leave-types')
  @ApiOperation({
    summary: 'Leave types (1 Vacation, 2 Sick leave, 3 Personal, 4 Parental, 5 Unpaid, 6 Other)',
  })
  @ApiOkResponse({ type: [ReferenceItemDto] })
  leaveTypes(): Promise<ReferenceItemDto[]> {
    return this.referenceData.leaveTypes();
  }

  @Get('transaction-sources')
  @ApiOperation({ summary: 'Transaction sources (1 Manual, 2 Bank import, 3 Invoice, 4 Integration)' })
  @ApiOkResponse({ type: [ReferenceItemDto] })
  transactionSources(): Promise<ReferenceItemDto[]> {
    return this.referenceData.transactionSources();
  }
}
