import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Global reference lists (docs/spec/decisions.md §9): seeded by migration, read-only, shared by every company. */
@Entity({ name: 'currencies' })
export class Currency {
  @PrimaryColumn({ type: 'smallint', primaryKeyConstraintName: 'currencies_pkey' })
  id!: number;

  @Column({ type: 'char', length: 3 })
  code!: string;

  @Column({ type: 'varchar', length: 60 })
  name!: string;
}

@Entity({ name: 'leave_types' })
export class LeaveType {
  @PrimaryColumn({ type: 'smallint', primaryKeyConstraintName: 'leave_types_pkey' })
  id!: number;

  @Column({ type: 'varchar', length: 60 })
  name!: string;
}

@Entity({ name: 'transaction_sources' })
export class TransactionSource {
  @PrimaryColumn({ type: 'smallint', primaryKeyConstraintName: 'transaction_sources_pkey' })
  id!: number;

  @Column({ type: 'varchar', length: 60 })
  name!: string;
}
