import { Injectable } from '@nestjs/common';
import { FeatureRepository, RequestTenantScope } from '@platform/database';
import { ResourceNotFoundError } from '../errors/main-api.errors';
import { PositionCategory } from './position-category.entity';
import { Position } from './position.entity';

/** Positions of the request's company, each read with its category. */
@Injectable()
export class PositionsRepository extends FeatureRepository<Position> {
  constructor(scope: RequestTenantScope) {
    super(scope, {
      entity: Position,
      alias: 'position',
      filters: {
        name: { kind: 'text', column: 'name' },
        category_id: { kind: 'integer', column: 'category_id' },
      },
      sorts: { name: 'name' },
      notFound: (id) => new ResourceNotFoundError(`Position ${id}`),
      relations: { category: 'category' },
    });
  }

  /** The category a body names (`category_id`), or a 400 naming that field. */
  requireCategory(id: number): Promise<PositionCategory> {
    return this.scope.repository(PositionCategory).requireReference(id, 'category_id');
  }
}

/** Position categories of the request's company. */
@Injectable()
export class PositionCategoriesRepository extends FeatureRepository<PositionCategory> {
  constructor(scope: RequestTenantScope) {
    super(scope, {
      entity: PositionCategory,
      alias: 'category',
      filters: { name: { kind: 'text', column: 'name' } },
      sorts: { name: 'name' },
      notFound: (id) => new ResourceNotFoundError(`Position category ${id}`),
    });
  }
}
