import { Injectable } from '@nestjs/common';
import { FeatureRepository, RequestTenantScope } from '@platform/database';
import { In, type SelectQueryBuilder } from 'typeorm';
import { ResourceNotFoundError } from '../errors/main-api.errors';
import { Position } from '../positions/position.entity';
import type { RatecardPriceInputDto } from './dto/ratecard.dto';
import { RatecardPrice } from './ratecard-price.entity';
import { Ratecard } from './ratecard.entity';

/** Ratecards of the request's company, read with their prices and each price's position. */
@Injectable()
export class RatecardsRepository extends FeatureRepository<Ratecard> {
  constructor(scope: RequestTenantScope) {
    super(scope, {
      entity: Ratecard,
      alias: 'ratecard',
      filters: {
        name: { kind: 'text', column: 'name' },
        currency_id: { kind: 'integer', column: 'currency_id' },
      },
      sorts: { name: 'name' },
      notFound: (id) => new ResourceNotFoundError(`Ratecard ${id}`),
      relations: { prices: 'price' },
    });
  }

  /** Which of these position ids the company has. */
  async existingPositionIds(ids: number[]): Promise<Set<number>> {
    const positions = await this.scope
      .repository(Position)
      .find({ where: { id: In(ids) }, select: { id: true } });
    return new Set(positions.map((position) => position.id));
  }

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

  /** Each price names its position. */
  protected override detailed(): SelectQueryBuilder<Ratecard> {
    return super.detailed().leftJoinAndSelect('price.position', 'position');
  }
}
