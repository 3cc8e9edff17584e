import { Injectable } from '@nestjs/common';
import { RequestTenantScope } from '@platform/database';
import type { RatecardPriceInputDto } from './dto/ratecard.dto';
import { RatecardPrice } from './ratecard-price.entity';

/** The statements of ratecards beyond one entity's reads and writes, in the request's scope. */
@Injectable()
export class RatecardsRepository {
  constructor(private readonly scope: RequestTenantScope) {}

  /** All prices at once, in one transaction: a ratecard is never half updated. */
  async replacePrices(ratecardId: number, prices: RatecardPriceInputDto[]): Promise<void> {
    await this.scope.transaction(async (unit) => {
      const ratecardPrices = unit.repository(RatecardPrice);
      await ratecardPrices.deleteWhere({ ratecardId });
      await ratecardPrices.insertMany(
        prices.map((price) => ({ ratecardId, positionId: price.position_id, price: String(price.price) })),
      );
    });
  }
}
