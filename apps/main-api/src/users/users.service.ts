import { Injectable, NotFoundException } from '@nestjs/common';
import { TenantRepositoryFactory, type TenantRepository } from '@platform/database';
import { User } from './user.entity';

@Injectable()
export class UsersService {
  private readonly users: TenantRepository<User>;

  constructor(repositories: TenantRepositoryFactory) {
    this.users = repositories.for(User);
  }

  async get(id: number): Promise<User> {
    const user = await this.users.findById(id);
    if (!user) {
      throw new NotFoundException(`User ${id} not found`);
    }
    return user;
  }
}
