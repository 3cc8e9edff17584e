import { Injectable } from '@nestjs/common';
import type { ListQueryDto, Paginated } from '@platform/contracts';
import {
  RequestTenantScope,
  type FilterDefinitions,
  type TenantRead,
  type TenantRepository,
} from '@platform/database';
import type { DeepPartial, SelectQueryBuilder } from 'typeorm';
import { Client } from '../clients/client.entity';
import { Position } from '../positions/position.entity';
import { User } from './user.entity';

const USER_FILTERS: FilterDefinitions = {
  name: { kind: 'text', column: "{alias}.first_name || ' ' || {alias}.last_name" },
  email: { kind: 'text', column: 'email' },
  role_id: { kind: 'integer', column: 'role_id' },
  hidden: { kind: 'boolean', column: 'hidden' },
  user_position_id: { kind: 'integer', column: 'user_position_id' },
};

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
export class UsersRepository {
  private readonly users: TenantRepository<User>;
  // The batch look-up the planner makes on every getAllocations, built once (CompiledRead).
  private readonly usersByIds: TenantRead<User, { ids: number[] }>;

  constructor(private readonly scope: RequestTenantScope) {
    this.users = scope.repository(User);
    // Only what UserDto shows: the position's and category's other columns (three timestamps
    // each) cost more to parse than the users' own, 50 users a planner report.
    this.usersByIds = this.users.compile('u', ['ids'], (query) =>
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

  /** A page of users (docs/spec/decisions.md §5: filters, order, pagination), each as `toDto` shapes it. */
  list<Dto>(query: ListQueryDto, toDto: (user: User) => Dto): Promise<Paginated<Dto> | Dto[]> {
    return this.users.paginate(this.withPosition(), 'u', query, USER_FILTERS, toDto);
  }

  /** Exactly those users, deleted ones too (history still names them), in id order. */
  byIds(ids: number[]): Promise<User[]> {
    return this.usersByIds.many({ ids });
  }

  findById(id: number): Promise<User | null> {
    const query = this.withPosition().andWhere('u.id = :id', { id });
    return this.users.run(() => query.getOne());
  }

  create(columns: DeepPartial<User>): Promise<User> {
    return this.users.create(columns);
  }

  save(user: User): Promise<User> {
    return this.users.save(user);
  }

  softRemove(user: User): Promise<User> {
    return this.users.softRemove(user);
  }

  /** The user's position, by the body's `user_position_id` (400 naming it when the company has none). */
  async requirePosition(id: number): Promise<void> {
    await this.scope.repository(Position).requireReference(id, 'user_position_id');
  }

  /** The user's client, by the body's `client_id` (400 naming it when the company has none). */
  async requireClient(id: number): Promise<void> {
    await this.scope.repository(Client).requireReference(id, 'client_id');
  }

  private withPosition(): SelectQueryBuilder<User> {
    return this.users
      .queryBuilder('u')
      .leftJoinAndSelect('u.position', 'position')
      .leftJoinAndSelect('position.category', 'category');
  }
}
