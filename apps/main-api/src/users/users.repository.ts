import { Injectable } from '@nestjs/common';
import { FeatureRepository, preparedStatementName, RequestTenantScope } from '@platform/database';
import type { SelectQueryBuilder } from 'typeorm';
import { Client } from '../clients/client.entity';
import { ResourceNotFoundError } from '../errors/main-api.errors';
import { LabelReferences } from '../labels/label-references.repository';
import { Position } from '../positions/position.entity';
import { User } from './user.entity';

/** A user as UserDto shows it, as one row of USERS_BY_IDS. */
export interface UserRow {
  id: number;
  version: number;
  first_name: string;
  last_name: string;
  email: string;
  role_id: number;
  user_position_id: number | null;
  /** Null without a position, or when it was deleted; likewise the category's fields. */
  position_name: string | null;
  category_id: number | null;
  category_name: string | null;
  client_id: number | null;
  picture: string;
  hidden: boolean;
  labels: number[];
  created_at: Date;
  deleted_at: Date | null;
}

// The planner's batch look-up on every getAllocations: a fixed text, prepared once per connection,
// with only what UserDto shows. Deleted users too (history still names them), but not a deleted
// position or category.
const USERS_BY_IDS = `SELECT u.id, u.version, u.first_name, u.last_name, u.email, u.role_id, u.user_position_id,
       position.name AS position_name, category.id AS category_id, category.name AS category_name,
       u.client_id, u.picture, u.hidden, u.labels, u.created_at, u.deleted_at
  FROM users u
  LEFT JOIN positions position ON position.id = u.user_position_id AND position.deleted_at IS NULL
  LEFT JOIN position_categories category ON category.id = position.category_id AND category.deleted_at IS NULL
 WHERE u.id = ANY($1) AND u.company_id = $2
 ORDER BY u.id`;
const USERS_BY_IDS_NAME = preparedStatementName(USERS_BY_IDS);

/** Users of the request's company, read with their position and its category, as UserDto shows them. */
@Injectable()
export class UsersRepository extends FeatureRepository<User> {
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
  }

  /** Exactly those users, deleted ones too (history still names them), in id order. */
  byIds(ids: number[]): Promise<UserRow[]> {
    return this.scope.sql.select<UserRow>(USERS_BY_IDS, [ids, this.scope.companyId()], USERS_BY_IDS_NAME);
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
