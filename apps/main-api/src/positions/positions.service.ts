import { Injectable } from '@nestjs/common';
import type { ListQueryDto, ListAnswer } from '@platform/contracts';
import {
  PositionCategoryDto,
  PositionDto,
  type CreatePositionCategoryDto,
  type CreatePositionDto,
  type UpdatePositionCategoryDto,
  type UpdatePositionDto,
} from './dto/position.dto';
import type { PositionCategory } from './position-category.entity';
import type { Position } from './position.entity';
import { PositionCategoriesRepository, PositionsRepository } from './positions.repository';

/** Positions and their categories: the vocabulary of staffing and ratecards. */
@Injectable()
export class PositionsService {
  constructor(
    private readonly positions: PositionsRepository,
    private readonly categories: PositionCategoriesRepository,
  ) {}

  async createPosition(body: CreatePositionDto): Promise<Position> {
    if (body.category_id) {
      await this.positions.requireCategory(body.category_id);
    }
    const { id } = await this.positions.create({ name: body.name, categoryId: body.category_id ?? null });
    return this.getPosition(id);
  }

  listPositions(query: ListQueryDto): Promise<ListAnswer<PositionDto>> {
    return this.positions.list(query, (position) => PositionDto.from(position));
  }

  getPosition(id: number): Promise<Position> {
    return this.positions.get(id);
  }

  async updatePosition(id: number, body: UpdatePositionDto): Promise<Position> {
    const position = await this.getPosition(id);
    if (body.category_id) {
      await this.positions.requireCategory(body.category_id);
    }
    Object.assign(position, {
      ...(body.name !== undefined && { name: body.name }),
      ...(body.category_id !== undefined && { categoryId: body.category_id }),
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

  listCategories(query: ListQueryDto): Promise<ListAnswer<PositionCategoryDto>> {
    return this.categories.list(query, (category) => PositionCategoryDto.from(category));
  }

  getCategory(id: number): Promise<PositionCategory> {
    return this.categories.get(id);
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
}
