import { Injectable } from '@nestjs/common';
import { isCalendarDate, type ListQueryDto, type Paginated } from '@platform/contracts';
import { TenantRepositoryFactory, type FilterDefinitions, type TenantRepository } from '@platform/database';
import { RequestValidationError } from '@platform/runtime';
import { Client } from '../clients/client.entity';
import { TransactionDto, type CreateTransactionDto } from './dto/transaction.dto';
import { Transaction, TRANSACTION_TYPES } from './transaction.entity';
import { ResourceNotFoundError } from '../errors/main-api.errors';

const TRANSACTION_FILTERS: FilterDefinitions = {
  client_id: { kind: 'integer', column: 'client_id' },
  type: { kind: 'enum', column: 'type', values: TRANSACTION_TYPES },
  is_income: { kind: 'boolean', column: 'is_income' },
  source_id: { kind: 'integer', column: 'source_id' },
};

@Injectable()
export class TransactionsService {
  private readonly transactions: TenantRepository<Transaction>;
  private readonly clients: TenantRepository<Client>;

  constructor(repositories: TenantRepositoryFactory) {
    this.transactions = repositories.for(Transaction);
    this.clients = repositories.for(Client);
  }

  async create(body: CreateTransactionDto): Promise<Transaction> {
    if (!isCalendarDate(body.date)) {
      throw new RequestValidationError([
        { field: 'date', validation: 'isDate', message: 'date must be a real calendar date' },
      ]);
    }
    await this.clients.requireReference(body.client_id, 'client_id');
    return this.transactions.create({
      clientId: body.client_id,
      date: body.date,
      type: body.type,
      total: String(body.total),
      currencyChangeAmount: String(body.currency_change_amount),
      exchange: String(body.exchange),
      sourceId: body.source_id,
      currencyId: body.currency_id,
      receiptNumber: body.receipt_number,
      isIncome: body.is_income,
    });
  }

  list(query: ListQueryDto): Promise<Paginated<TransactionDto> | TransactionDto[]> {
    return this.transactions.paginate(
      this.transactions.queryBuilder('transaction'),
      'transaction',
      query,
      TRANSACTION_FILTERS,
      (transaction) => TransactionDto.from(transaction),
    );
  }

  async get(id: number): Promise<Transaction> {
    const transaction = await this.transactions.findById(id);
    if (!transaction) {
      throw new ResourceNotFoundError(`Transaction ${id}`);
    }
    return transaction;
  }

  /** Transactions are accounting records: deleting removes the row, answering what was removed. */
  async remove(id: number): Promise<Transaction> {
    const transaction = await this.get(id);
    await this.transactions.delete(transaction);
    return transaction;
  }
}
