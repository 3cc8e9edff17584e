import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';

/**
 * Refuses to start a service whose connections act as a role that row-level security does not
 * apply to: a superuser, a role with BYPASSRLS, or the owner of its tables (docs/decisions.md,
 * "Tenancy"). Such a deployment would look fine and enforce nothing.
 */
@Injectable()
export class RuntimeRoleCheck implements OnApplicationBootstrap {
  constructor(private readonly dataSource: DataSource) {}

  async onApplicationBootstrap(): Promise<void> {
    const [role] = await this.dataSource.query<
      { name: string; superuser: boolean; bypass: boolean; owns: boolean }[]
    >(
      `SELECT r.rolname AS name, r.rolsuper AS superuser, r.rolbypassrls AS bypass,
              EXISTS (SELECT 1 FROM pg_tables t WHERE t.schemaname = current_schema()
                       AND pg_has_role(current_user, t.tableowner, 'USAGE')) AS owns
         FROM pg_roles r WHERE r.rolname = current_user`,
    );
    if (!role || role.superuser || role.bypass || role.owns) {
      throw new Error(
        `the database role "${role?.name ?? '?'}" is ${
          role?.superuser
            ? 'a superuser'
            : role?.bypass
              ? 'allowed to bypass row-level security'
              : 'the owner of the tables'
        }: connect as the service's runtime role (DATABASE_ROLE, README "Configuration")`,
      );
    }
  }
}
