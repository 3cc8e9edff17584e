import { Injectable } from '@nestjs/common';
import type { ListQueryDto, Paginated } from '@platform/contracts';
import { TenantRepositoryFactory, type FilterDefinitions, type TenantRepository } from '@platform/database';
import { RequestValidationError } from '@platform/runtime';
import { In } from 'typeorm';
import { Position } from '../positions/position.entity';
import {
  RatecardDto,
  type CreateRatecardDto,
  type RatecardPriceInputDto,
  type UpdateRatecardDto,
} from './dto/ratecard.dto';
import { Ratecard } from './ratecard.entity';
import { RatecardsRepository } from './ratecards.repository';
import { ResourceNotFoundError } from '../errors/main-api.errors';

const RATECARD_FILTERS: FilterDefinitions = {
  name: { kind: 'text', column: 'name' },
  currency_id: { kind: 'integer', column: 'currency_id' },
};

@Injectable()
export class RatecardsService {
  private readonly ratecards: TenantRepository<Ratecard>;
  private readonly positions: TenantRepository<Position>;

  constructor(
    repositories: TenantRepositoryFactory,
    private readonly repository: RatecardsRepository,
  ) {
    this.ratecards = repositories.for(Ratecard);
    this.positions = repositories.for(Position);
  }

  async create(body: CreateRatecardDto): Promise<Ratecard> {
    await this.assertPrices(body.prices ?? []);
    const { id } = await this.ratecards.create({
      name: body.name,
      originalName: body.original_name ?? body.name,
      percent: String(body.percent ?? 100),
      linkedToBasePrice: body.linked_to_base_price ?? false,
      currencyId: body.currency_id ?? 1,
    });
    await this.repository.replacePrices(id, body.prices ?? []);
    return this.get(id);
  }

  list(query: ListQueryDto): Promise<Paginated<RatecardDto> | RatecardDto[]> {
    return this.ratecards.paginate(this.withPrices(), 'ratecard', query, RATECARD_FILTERS, (ratecard) =>
      RatecardDto.from(ratecard),
    );
  }

  async get(id: number): Promise<Ratecard> {
    const query = this.withPrices().andWhere('ratecard.id = :id', { id });
    const ratecard = await this.ratecards.run(() => query.getOne());
    if (!ratecard) {
      throw new ResourceNotFoundError(`Ratecard ${id}`);
    }
    return ratecard;
  }

  async update(id: number, body: UpdateRatecardDto): Promise<Ratecard> {
    const ratecard = await this.get(id);
    if (body.prices) {
      await this.assertPrices(body.prices);
    }
    await this.ratecards.save({
      ...ratecard,
      prices: undefined,
      ...(body.name !== undefined && { name: body.name }),
      ...(body.currency_id !== undefined && { currencyId: body.currency_id }),
      ...(body.original_name !== undefined && { originalName: body.original_name }),
      ...(body.percent !== undefined && { percent: String(body.percent) }),
      ...(body.linked_to_base_price !== undefined && { linkedToBasePrice: body.linked_to_base_price }),
    });
    if (body.prices) {
      await this.repository.replacePrices(id, body.prices);
    }
    return this.get(id);
  }

  async remove(id: number): Promise<Ratecard> {
    const ratecard = await this.get(id);
    await this.ratecards.softRemove({ ...ratecard, prices: undefined });
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
    const found = new Set(
      (await this.positions.find({ where: { id: In(positionIds) }, select: { id: true } })).map(
        (position) => position.id,
      ),
    );
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

  private withPrices() {
    return this.ratecards
      .queryBuilder('ratecard')
      .leftJoinAndSelect('ratecard.prices', 'price')
      .leftJoinAndSelect('price.position', 'position');
  }
}
