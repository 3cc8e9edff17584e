import { Injectable } from '@nestjs/common';
import type { ListQueryDto, ListAnswer } from '@platform/contracts';
import { RequestValidationError } from '@platform/runtime';
import {
  RatecardDto,
  type CreateRatecardDto,
  type RatecardPriceInputDto,
  type UpdateRatecardDto,
} from './dto/ratecard.dto';
import { Ratecard } from './ratecard.entity';
import { RatecardsRepository } from './ratecards.repository';

@Injectable()
export class RatecardsService {
  constructor(private readonly ratecards: RatecardsRepository) {}

  async create(body: CreateRatecardDto): Promise<Ratecard> {
    await this.assertPrices(body.prices ?? []);
    const { id } = await this.ratecards.create({
      name: body.name,
      originalName: body.original_name ?? body.name,
      percent: String(body.percent ?? 100),
      linkedToBasePrice: body.linked_to_base_price ?? false,
      currencyId: body.currency_id ?? 1,
    });
    await this.ratecards.replacePrices(id, body.prices ?? []);
    return this.get(id);
  }

  list(query: ListQueryDto): Promise<ListAnswer<RatecardDto>> {
    return this.ratecards.list(query, (ratecard) => RatecardDto.from(ratecard));
  }

  get(id: number): Promise<Ratecard> {
    return this.ratecards.get(id);
  }

  async update(id: number, body: UpdateRatecardDto): Promise<Ratecard> {
    const ratecard = await this.get(id);
    if (body.prices) {
      await this.assertPrices(body.prices);
    }
    await this.ratecards.save({
      ...ratecard,
      ...(body.name !== undefined && { name: body.name }),
      ...(body.currency_id !== undefined && { currencyId: body.currency_id }),
      ...(body.original_name !== undefined && { originalName: body.original_name }),
      ...(body.percent !== undefined && { percent: String(body.percent) }),
      ...(body.linked_to_base_price !== undefined && { linkedToBasePrice: body.linked_to_base_price }),
    });
    if (body.prices) {
      await this.ratecards.replacePrices(id, body.prices);
    }
    return this.get(id);
  }

  async remove(id: number): Promise<Ratecard> {
    const ratecard = await this.get(id);
    await this.ratecards.softRemove(ratecard);
    return ratecard;
  }

  private async assertPrices(prices: RatecardPriceInputDto[]): Promise<void> {
    const positionIds = prices.map((price) => price.position_id);
    if (new Set(positionIds).size !== positionIds.length) {
      throw new RequestValidationError([
        { field: 'prices', validation: 'uniquePositions', message: 'prices must name each position_id once' },
      ]);
    }
    if (positionIds.length === 0) {
      return;
    }
    const found = await this.ratecards.existingPositionIds(positionIds);
    const missing = positionIds.filter((positionId) => !found.has(positionId));
    if (missing.length > 0) {
      throw new RequestValidationError([
        {
          field: 'prices',
          validation: 'exists',
          message: `position_id ${missing.join(', ')} does not exist`,
        },
      ]);
    }
  }
}
