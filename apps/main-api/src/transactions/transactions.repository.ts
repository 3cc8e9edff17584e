import { Injectable } from '@nestjs/common';
import { FeatureRepository, RequestTenantScope } from '@platform/database';
import { Client } from '../clients/client.entity';
import { ResourceNotFoundError } from '../errors/main-api.errors';
import { Transaction, TRANSACTION_TYPES } from './transaction.entity';

/** Transactions of the request's company, and the client a transaction belongs to. */
@Injectable()
export class TransactionsRepository extends FeatureRepository<Transaction> {
  constructor(scope: RequestTenantScope) {
    super(scope, {
      entity: Transaction,
      alias: 'transaction',
      filters: {
        client_id: { kind: 'integer', column: 'client_id' },
        date: { kind: 'date', column: 'date' },
        type: { kind: 'enum', column: 'type', values: TRANSACTION_TYPES },
        is_income: { kind: 'boolean', column: 'is_income' },
        source_id: { kind: 'integer', column: 'source_id' },
      },
      sorts: { date: 'date' },
      notFound: (id) => new ResourceNotFoundError(`Transaction ${id}`),
    });
  }

  /** The client a body names (`client_id`), or a 400 naming that field. */
  requireClient(id: number): Promise<Client> {
    return this.scope.repository(Client).requireReference(id, 'client_id');
  }
}
