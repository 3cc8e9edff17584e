import { Injectable } from '@nestjs/common';
import { PrincipalContext } from '@platform/auth';
import { TenantRepositoryFactory } from '@platform/database';
import { RequestValidationError } from '@platform/runtime';
import { DataSource, In, type EntityTarget, type ObjectLiteral } from 'typeorm';
import { User } from './user.entity';

/**
 * Users attached to something (team members, contract users): one way to add them (users of the
 * caller's company only, each once) and to remove them.
 */
@Injectable()
export class UserMemberships {
  constructor(
    private readonly repositories: TenantRepositoryFactory,
    private readonly principals: PrincipalContext,
    private readonly dataSource: DataSource,
  ) {}

  async add<Member extends ObjectLiteral>(
    membership: EntityTarget<Member>,
    ownerKey: keyof Member & string,
    ownerId: number,
    userIds: number[],
  ): Promise<void> {
    await this.requireUsers(userIds);
    const companyId = this.principals.companyId();
    await this.dataSource
      .createQueryBuilder()
      .insert()
      .into(membership)
      .values(
        [...new Set(userIds)].map(
          (userId) => ({ [ownerKey]: ownerId, userId, companyId }) as unknown as Member,
        ),
      )
      .orIgnore()
      .execute();
  }

  async remove<Member extends ObjectLiteral>(
    membership: EntityTarget<Member>,
    ownerKey: keyof Member & string,
    ownerId: number,
    userIds: number[],
  ): Promise<void> {
    await this.dataSource
      .getRepository(membership)
      .delete({ [ownerKey]: ownerId, companyId: this.principals.companyId(), userId: In(userIds) } as never);
  }

  private async requireUsers(userIds: number[]): Promise<void> {
    const users = await this.repositories
      .for(User)
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
