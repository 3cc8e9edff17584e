import { Injectable } from '@nestjs/common';
import {
  TenantRepositoryFactory,
  type FilterDefinitions,
  type TenantRead,
  type TenantRepository,
} from '@platform/database';
import type { SelectQueryBuilder } from 'typeorm';
import type { Paginated } from '@platform/contracts';
import { hashPassword } from '../security/password-hashing';
import { UserDto, type CreateUserDto, type UpdateUserDto, type UsersListQueryDto } from './dto/user.dto';
import { Client } from '../clients/client.entity';
import { Position } from '../positions/position.entity';
import { refusalToCreate, refusalToDelete, refusalToUpdate, type Grantor } from './role-grants';
import { User } from './user.entity';
import { AccessDeniedError, ResourceNotFoundError } from '../errors/main-api.errors';

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

@Injectable()
export class UsersService {
  private readonly users: TenantRepository<User>;
  private readonly positions: TenantRepository<Position>;
  private readonly clients: TenantRepository<Client>;
  // The batch look-up the planner makes on every getAllocations, built once (CompiledRead).
  private readonly usersByIds: TenantRead<User, { ids: number[] }>;

  constructor(repositories: TenantRepositoryFactory) {
    this.users = repositories.for(User);
    this.positions = repositories.for(Position);
    this.clients = repositories.for(Client);
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

  private withPosition() {
    return withPosition(this.users.queryBuilder('u'));
  }

  async create(body: CreateUserDto, caller: Grantor): Promise<User> {
    refuseIf(refusalToCreate(caller, body.role_id));
    if (body.user_position_id) {
      await this.positions.requireReference(body.user_position_id, 'user_position_id');
    }
    if (body.client_id) {
      await this.clients.requireReference(body.client_id, 'client_id');
    }
    const { id } = await this.users.create({
      clientId: body.client_id ?? null,
      firstName: body.first_name,
      lastName: body.last_name,
      email: body.email.toLowerCase(),
      roleId: body.role_id,
      passwordHash: body.password ? await hashPassword(body.password) : null,
      userPositionId: body.user_position_id ?? null,
      picture: body.picture ?? '',
      hidden: body.hidden ?? false,
      labels: body.labels ?? [],
    });
    return this.get(id);
  }

  /** With `ids`, exactly those users (deleted ones too: history still names them), in one query. */
  async list(query: UsersListQueryDto): Promise<Paginated<UserDto> | UserDto[]> {
    if (query.ids !== undefined) {
      return this.byIds([...new Set(query.ids.split(',').map(Number))]);
    }
    return this.users.paginate(this.withPosition(), 'u', query, USER_FILTERS, (user) => UserDto.from(user));
  }

  /** Exactly those users of the caller's company, deleted ones too (history still names them). */
  async byIds(ids: number[]): Promise<UserDto[]> {
    const users = await this.usersByIds.many({ ids });
    return users.map((user) => UserDto.from(user));
  }

  async get(id: number): Promise<User> {
    const query = this.withPosition().andWhere('u.id = :id', { id });
    const user = await this.users.run(() => query.getOne());
    if (!user) {
      throw new ResourceNotFoundError(`User ${id}`);
    }
    return user;
  }

  async update(id: number, body: UpdateUserDto, caller: Grantor): Promise<User> {
    const user = await this.get(id);
    refuseIf(refusalToUpdate(caller, user, body.role_id));
    if (body.user_position_id) {
      await this.positions.requireReference(body.user_position_id, 'user_position_id');
    }
    if (body.client_id) {
      await this.clients.requireReference(body.client_id, 'client_id');
    }
    Object.assign(user, {
      ...(body.client_id !== undefined && { clientId: body.client_id, client: undefined }),
      ...(body.first_name !== undefined && { firstName: body.first_name }),
      ...(body.last_name !== undefined && { lastName: body.last_name }),
      ...(body.email !== undefined && { email: body.email.toLowerCase() }),
      ...(body.role_id !== undefined && { roleId: body.role_id }),
      ...(body.user_position_id !== undefined && {
        userPositionId: body.user_position_id,
        position: undefined,
      }),
      ...(body.picture !== undefined && { picture: body.picture }),
      ...(body.hidden !== undefined && { hidden: body.hidden }),
      ...(body.labels !== undefined && { labels: body.labels }),
    });
    await this.users.save(user);
    return this.get(id);
  }

  /** Soft delete: hours and allocations keep naming the user; the login stops working. */
  async remove(id: number, caller: Grantor): Promise<User> {
    const user = await this.get(id);
    refuseIf(refusalToDelete(caller, user));
    return this.users.softRemove(user);
  }
}

function refuseIf(refusal: string | undefined): void {
  if (refusal !== undefined) {
    throw new AccessDeniedError(refusal);
  }
}

/** Users with their position and its category, as their read shape shows them. */
function withPosition(query: SelectQueryBuilder<User>): SelectQueryBuilder<User> {
  return query.leftJoinAndSelect('u.position', 'position').leftJoinAndSelect('position.category', 'category');
}
