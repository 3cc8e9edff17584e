import { Injectable } from '@nestjs/common';
import { RequestTenantScope, type CompanyOwned } from '@platform/database';
import { RequestValidationError } from '@platform/runtime';
import { In, type EntityTarget, type FindOptionsWhere, type QueryDeepPartialEntity } from 'typeorm';
import { User } from './user.entity';

/**
 * Users attached to something (team members, contract users): one way to add them (users of the
 * caller's company only, each once) and to remove them.
 */
@Injectable()
export class UserMemberships {
  constructor(private readonly scope: RequestTenantScope) {}

  async add<Member extends CompanyOwned>(
    membership: EntityTarget<Member>,
    ownerKey: keyof Member & string,
    ownerId: number,
    userIds: number[],
  ): Promise<void> {
    await this.requireUsers(userIds);
    await this.scope
      .repository(membership)
      .insertMissing(
        [...new Set(userIds)].map(
          (userId) => ({ [ownerKey]: ownerId, userId }) as unknown as QueryDeepPartialEntity<Member>,
        ),
      );
  }

  async remove<Member extends CompanyOwned>(
    membership: EntityTarget<Member>,
    ownerKey: keyof Member & string,
    ownerId: number,
    userIds: number[],
  ): Promise<void> {
    await this.scope
      .repository(membership)
      .deleteWhere({ [ownerKey]: ownerId, userId: In(userIds) } as unknown as FindOptionsWhere<Member>);
  }

  private async requireUsers(userIds: number[]): Promise<void> {
    const users = await this.scope
      .repository(User)
      .find({ where: { id: In(userIds) }, select: { id: true } });
    const found = new Set(users.map((user) => user.id));
    const missing = userIds.filter((userId) => !found.has(userId));
    if (missing.length > 0) {
      throw new RequestValidationError([
        { field: 'user_ids', validation: 'exists', message: `user_ids ${missing.join(', ')} do not exist` },
      ]);
    }
  }
}
