import { Check, Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Position } from '../positions/position.entity';
import { Ratecard } from './ratecard.entity';

/** The hourly price of one position on one ratecard (one row per position, by key). */
@Entity({ name: 'ratecard_prices' })
@Check('ratecard_prices_price_check', '"price" >= 0')
export class RatecardPrice {
  @PrimaryColumn({ name: 'ratecard_id', type: 'integer', primaryKeyConstraintName: 'ratecard_prices_pkey' })
  ratecardId!: number;

  @PrimaryColumn({ name: 'position_id', type: 'integer', primaryKeyConstraintName: 'ratecard_prices_pkey' })
  positionId!: number;

  @Column({ name: 'company_id', type: 'integer' })
  companyId!: number;

  @Column({ type: 'numeric', precision: 12, scale: 2 })
  price!: string;

  @ManyToOne(() => Ratecard, (ratecard) => ratecard.prices, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'ratecard_id', foreignKeyConstraintName: 'ratecard_prices_ratecard_id_fkey' })
  ratecard?: Ratecard;

  @ManyToOne(() => Position, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'position_id', foreignKeyConstraintName: 'ratecard_prices_position_id_fkey' })
  position?: Position;
}
