import { Injectable } from '@nestjs/common';
import { isCalendarDate, type ListQueryDto, type ListAnswer } from '@platform/contracts';
import { RequestValidationError } from '@platform/runtime';
import { TransactionDto, type CreateTransactionDto } from './dto/transaction.dto';
import type { Transaction } from './transaction.entity';
import { TransactionsRepository } from './transactions.repository';

@Injectable()
export class TransactionsService {
  constructor(private readonly transactions: TransactionsRepository) {}

  async create(body: CreateTransactionDto): Promise<Transaction> {
    if (!isCalendarDate(body.date)) {
      throw new RequestValidationError([
        { field: 'date', validation: 'isDate', message: 'date must be a real calendar date' },
      ]);
    }
    await this.transactions.requireClient(body.client_id);
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

  list(query: ListQueryDto): Promise<ListAnswer<TransactionDto>> {
    return this.transactions.list(query, (transaction) => TransactionDto.from(transaction));
  }

  get(id: number): Promise<Transaction> {
    return this.transactions.get(id);
  }

  /** Transactions are accounting records: deleting removes the row, answering what was removed. */
  async remove(id: number): Promise<Transaction> {
    const transaction = await this.get(id);
    await this.transactions.delete(transaction);
    return transaction;
  }
}
