import { Transaction } from './transaction.entity';
import { Body, Controller, Delete, Get, Param, Post, Query } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Permission, RequirePermission } from '@platform/auth';
import { ListQueryDto, type ListAnswer, ApiPaginatedResponse, ApiFiltersExample } from '@platform/contracts';
import { ParseIdPipe, ConditionalRead, ConditionalResource } from '@platform/runtime';
import { MainApiErrorBodyDto } from '../errors/main-api-error-body.dto';
import { CreateTransactionDto, TransactionDto } from './dto/transaction.dto';
import { TransactionsService } from './transactions.service';
import { Idempotent } from '../idempotency/idempotent.decorator';

@ApiTags('transactions')
@Controller('transactions')
export class TransactionsController {
  constructor(private readonly transactions: TransactionsService) {}

  @Post()
  @Idempotent()
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOperation({ summary: 'Record a transaction (can_update and can_delete are accepted, never returned)' })
  @ApiCreatedResponse({ type: TransactionDto })
  async create(@Body() body: CreateTransactionDto): Promise<TransactionDto> {
    return TransactionDto.from(await this.transactions.create(body));
  }

  @Get()
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({
    summary:
      'List transactions; filters: client_id, date (with ranges), type, is_income, source_id; sort: date',
  })
  @ApiFiltersExample({ type: 'invoice', is_income: true })
  @ApiPaginatedResponse(TransactionDto)
  list(@Query() query: ListQueryDto): Promise<ListAnswer<TransactionDto>> {
    return this.transactions.list(query);
  }

  @Get(':id')
  @ConditionalRead()
  @ApiOperation({ summary: 'One transaction by id' })
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOkResponse({ type: TransactionDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async get(@Param('id', ParseIdPipe) id: number): Promise<TransactionDto> {
    return TransactionDto.from(await this.transactions.get(id));
  }

  @Delete(':id')
  @ConditionalResource(Transaction)
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOperation({ summary: 'Delete a transaction (answers the deleted transaction)' })
  @ApiOkResponse({ type: TransactionDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async remove(@Param('id', ParseIdPipe) id: number): Promise<TransactionDto> {
    return TransactionDto.from(await this.transactions.remove(id));
  }
}
