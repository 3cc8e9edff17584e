import { randomBytes } from 'node:crypto';
import { DataSource, type EntitySchema } from 'typeorm';
import { createDatabase, databaseUrl, dropDatabase } from '../database-admin';
import { buildDataSourceOptions } from '../data-source-options';

/** A spec's own database with its entities' tables (made by TypeORM) in the schema `sample`. */
export interface SampleSchema {
  dataSource: DataSource;
  close(): Promise<void>;
}

/**
 * For this library's specs: a fresh database on TEST_DATABASE_URL holding just the entities a spec
 * declares, connected as the service's DataSource would be (PooledClient, calendar dates).
 */
export async function openSampleSchema(
  label: string,
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- TypeORM's own type
  entities: (Function | EntitySchema)[],
): Promise<SampleSchema> {
  const adminUrl = process.env.TEST_DATABASE_URL ?? '';
  const name = `t_${label}_${randomBytes(5).toString('hex')}`;
  await createDatabase(adminUrl, name);
  const dataSource = new DataSource({
    ...buildDataSourceOptions({
      url: databaseUrl(adminUrl, name),
      schema: 'sample',
      applicationName: `${label}-spec`,
      entities,
      migrations: [],
    }),
    synchronize: false,
  });
  await dataSource.initialize();
  await dataSource.query('CREATE SCHEMA sample');
  await dataSource.synchronize();
  return {
    dataSource,
    close: async () => {
      await dataSource.destroy();
      await dropDatabase(adminUrl, name);
    },
  };
}
