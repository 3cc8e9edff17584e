import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Currency, LeaveType, TransactionSource } from './reference-item.entities';

/**
 * The global reference lists (docs/spec/decisions.md §9). They belong to no company and have no
 * row-level security, so they are read outside any tenant scope.
 */
@Injectable()
export class ReferenceDataRepository {
  constructor(private readonly dataSource: DataSource) {}

  currencies(): Promise<Currency[]> {
    return this.dataSource.getRepository(Currency).find({ order: { id: 'ASC' } });
  }

  leaveTypes(): Promise<LeaveType[]> {
    return this.dataSource.getRepository(LeaveType).find({ order: { id: 'ASC' } });
  }

  transactionSources(): Promise<TransactionSource[]> {
    return this.dataSource.getRepository(TransactionSource).find({ order: { id: 'ASC' } });
  }
}
