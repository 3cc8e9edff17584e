import { DataSource, type DataSourceOptions } from 'typeorm';

export interface MigrationReport {
  schema: string;
  applied: string[];
}

/**
 * Applies pending migrations of one service. Several replicas or Jobs may start at once, so a
 * Postgres advisory lock keyed by the schema lets exactly one of them migrate while the others wait
 * and then find nothing to do.
 */
export async function runMigrations(
  options: DataSourceOptions & { schema?: string },
): Promise<MigrationReport> {
  const schema = options.schema ?? 'public';
  const dataSource = new DataSource(options);
  await dataSource.initialize();
  const lockHolder = dataSource.createQueryRunner();
  try {
    await lockHolder.connect();
    await lockHolder.query('SELECT pg_advisory_lock(hashtext($1))', [`migrations:${schema}`]);
    try {
      await lockHolder.query(`CREATE SCHEMA IF NOT EXISTS "${schema.replace(/"/g, '""')}"`);
      const applied = await dataSource.runMigrations({ transaction: 'each' });
      return { schema, applied: applied.map((migration) => migration.name) };
    } finally {
      await lockHolder.query('SELECT pg_advisory_unlock(hashtext($1))', [`migrations:${schema}`]);
    }
  } finally {
    await lockHolder.release();
    await dataSource.destroy();
  }
}
