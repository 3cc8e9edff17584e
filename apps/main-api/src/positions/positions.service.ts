import { Injectable } from '@nestjs/common';
import type { ListQueryDto, Paginated } from '@platform/contracts';
import { TenantRepositoryFactory, type FilterDefinitions, type TenantRepository } from '@platform/database';
import {
  PositionCategoryDto,
  PositionDto,
  type CreatePositionCategoryDto,
  type CreatePositionDto,
  type UpdatePositionCategoryDto,
  type UpdatePositionDto,
} from './dto/position.dto';
import { PositionCategory } from './position-category.entity';
import { Position } from './position.entity';
import { ResourceNotFoundError } from '../errors/main-api.errors';

const POSITION_FILTERS: FilterDefinitions = {
  name: { kind: 'text', column: 'name' },
  category_id: { kind: 'integer', column: 'category_id' },
};
const CATEGORY_FILTERS: FilterDefinitions = { name: { kind: 'text', column: 'name' } };

/** Positions and their categories: the vocabulary of staffing and ratecards. */
@Injectable()
export class PositionsService {
  private readonly positions: TenantRepository<Position>;
  private readonly categories: TenantRepository<PositionCategory>;

  constructor(repositories: TenantRepositoryFactory) {
    this.positions = repositories.for(Position);
    this.categories = repositories.for(PositionCategory);
  }

  async createPosition(body: CreatePositionDto): Promise<Position> {
    if (body.category_id) {
      await this.categories.requireReference(body.category_id, 'category_id');
    }
    const { id } = await this.positions.create({ name: body.name, categoryId: body.category_id ?? null });
    return this.getPosition(id);
  }

  listPositions(query: ListQueryDto): Promise<Paginated<PositionDto> | PositionDto[]> {
    return this.positions.paginate(this.positionQuery(), 'position', query, POSITION_FILTERS, (position) =>
      PositionDto.from(position),
    );
  }

  async getPosition(id: number): Promise<Position> {
    const position = await this.positions.run(() =>
      this.positionQuery().andWhere('position.id = :id', { id }).getOne(),
    );
    if (!position) {
      throw new ResourceNotFoundError(`Position ${id}`);
    }
    return position;
  }

  async updatePosition(id: number, body: UpdatePositionDto): Promise<Position> {
    const position = await this.getPosition(id);
    if (body.category_id) {
      await this.categories.requireReference(body.category_id, 'category_id');
    }
    Object.assign(position, {
      ...(body.name !== undefined && { name: body.name }),
      ...(body.category_id !== undefined && { categoryId: body.category_id, category: undefined }),
    });
    await this.positions.save(position);
    return this.getPosition(id);
  }

  async removePosition(id: number): Promise<Position> {
    return this.positions.softRemove(await this.getPosition(id));
  }

  async createCategory(body: CreatePositionCategoryDto): Promise<PositionCategory> {
    return this.categories.create({ name: body.name });
  }

  listCategories(query: ListQueryDto): Promise<Paginated<PositionCategoryDto> | PositionCategoryDto[]> {
    return this.categories.paginate(
      this.categories.queryBuilder('category'),
      'category',
      query,
      CATEGORY_FILTERS,
      (category) => PositionCategoryDto.from(category),
    );
  }

  async getCategory(id: number): Promise<PositionCategory> {
    const category = await this.categories.findById(id);
    if (!category) {
      throw new ResourceNotFoundError(`Position category ${id}`);
    }
    return category;
  }

  async updateCategory(id: number, body: UpdatePositionCategoryDto): Promise<PositionCategory> {
    const category = await this.getCategory(id);
    if (body.name !== undefined) {
      category.name = body.name;
    }
    return this.categories.save(category);
  }

  async removeCategory(id: number): Promise<PositionCategory> {
    return this.categories.softRemove(await this.getCategory(id));
  }

  private positionQuery() {
    return this.positions.queryBuilder('position').leftJoinAndSelect('position.category', 'category');
  }
}
