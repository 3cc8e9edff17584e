import { Injectable } from '@nestjs/common';
import { FeatureRepository, RequestTenantScope, type TenantRead } from '@platform/database';
import type { SelectQueryBuilder } from 'typeorm';
import { Client } from '../clients/client.entity';
import { ResourceNotFoundError } from '../errors/main-api.errors';
import { LabelReferences } from '../labels/label-references.repository';
import { Position } from '../positions/position.entity';
import { User } from './user.entity';

/** The user columns UserDto shows. */
const USER_DTO_COLUMNS = [
  'id',
  'firstName',
  'lastName',
  'email',
  'roleId',
  'userPositionId',
  'clientId',
  'picture',
  'hidden',
  'labels',
  'createdAt',
  'deletedAt',
];

/** Users of the request's company, read with their position and its category, as UserDto shows them. */
@Injectable()
export class UsersRepository extends FeatureRepository<User> {
  // The batch look-up the planner makes on every getAllocations, built once (CompiledRead).
  private readonly usersByIds: TenantRead<User, { ids: number[] }>;

  constructor(
    scope: RequestTenantScope,
    private readonly labels: LabelReferences,
  ) {
    super(scope, {
      entity: User,
      alias: 'u',
      filters: {
        name: { kind: 'text', column: "{alias}.first_name || ' ' || {alias}.last_name" },
        email: { kind: 'text', column: 'email' },
        role_id: { kind: 'integer', column: 'role_id' },
        hidden: { kind: 'boolean', column: 'hidden' },
        user_position_id: { kind: 'integer', column: 'user_position_id' },
      },
      notFound: (id) => new ResourceNotFoundError(`User ${id}`),
      relations: { position: 'position' },
    });
    // Only what UserDto shows: the position's and category's other columns (three timestamps
    // each) cost more to parse than the users' own, 50 users a planner report.
    this.usersByIds = this.rows.compile('u', ['ids'], (query) =>
      query
        .select(USER_DTO_COLUMNS.map((column) => `u.${column}`))
        .leftJoin('u.position', 'position')
        .addSelect(['position.id', 'position.name'])
        .leftJoin('position.category', 'category')
        .addSelect(['category.id', 'category.name'])
        .withDeleted()
        .andWhere('u.id = ANY(:ids)')
        .orderBy('u.id'),
    );
  }

  /** Exactly those users, deleted ones too (history still names them), in id order. */
  byIds(ids: number[]): Promise<User[]> {
    return this.usersByIds.many({ ids });
  }

  /** The user's position, by the body's `user_position_id` (400 naming it when the company has none). */
  async requirePosition(id: number): Promise<void> {
    await this.scope.repository(Position).requireReference(id, 'user_position_id');
  }

  /** The user's client, by the body's `client_id` (400 naming it when the company has none). */
  async requireClient(id: number): Promise<void> {
    await this.scope.repository(Client).requireReference(id, 'client_id');
  }

  /** The user's labels, by the body's `labels`: those it had (`kept`) may have been deleted since. */
  requireLabels(ids: number[], kept: readonly number[] = []): Promise<void> {
    return this.labels.require(ids, kept);
  }

  /** The position's category comes along too: UserDto names it. */
  protected override detailed(): SelectQueryBuilder<User> {
    return super.detailed().leftJoinAndSelect('position.category', 'category');
  }
}
