import { Injectable } from '@nestjs/common';
import { entityIdsOf, type ListAnswer } from '@platform/contracts';
import { hashPassword } from '../security/password-hashing';
import { UserDto, type CreateUserDto, type UpdateUserDto, type UsersListQueryDto } from './dto/user.dto';
import { refusalToCreate, refusalToDelete, refusalToUpdate, type Grantor } from './role-grants';
import type { User } from './user.entity';
import { UsersRepository } from './users.repository';
import { AccessDeniedError } from '../errors/main-api.errors';

@Injectable()
export class UsersService {
  constructor(private readonly users: UsersRepository) {}

  async create(body: CreateUserDto, caller: Grantor): Promise<User> {
    refuseIf(refusalToCreate(caller, body.role_id));
    if (body.user_position_id) {
      await this.users.requirePosition(body.user_position_id);
    }
    if (body.client_id) {
      await this.users.requireClient(body.client_id);
    }
    await this.users.requireLabels(body.labels ?? []);
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
  async list(query: UsersListQueryDto): Promise<ListAnswer<UserDto>> {
    if (query.ids !== undefined) {
      return this.byIds(entityIdsOf(query.ids));
    }
    return this.users.list(query, (user) => UserDto.from(user));
  }

  /** Exactly those users of the caller's company, deleted ones too (history still names them). */
  async byIds(ids: number[]): Promise<UserDto[]> {
    return (await this.users.byIds(ids)).map((row) => UserDto.fromRow(row));
  }

  get(id: number): Promise<User> {
    return this.users.get(id);
  }

  async update(id: number, body: UpdateUserDto, caller: Grantor): Promise<User> {
    const user = await this.get(id);
    refuseIf(refusalToUpdate(caller, user, body.role_id));
    if (body.user_position_id) {
      await this.users.requirePosition(body.user_position_id);
    }
    if (body.client_id) {
      await this.users.requireClient(body.client_id);
    }
    if (body.labels !== undefined) {
      await this.users.requireLabels(body.labels, user.labels);
    }
    Object.assign(user, {
      ...(body.client_id !== undefined && { clientId: body.client_id }),
      ...(body.first_name !== undefined && { firstName: body.first_name }),
      ...(body.last_name !== undefined && { lastName: body.last_name }),
      ...(body.email !== undefined && { email: body.email.toLowerCase() }),
      ...(body.role_id !== undefined && { roleId: body.role_id }),
      ...(body.user_position_id !== undefined && { userPositionId: body.user_position_id }),
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
