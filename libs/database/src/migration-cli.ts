import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { runMigrations } from './run-migrations';

type SchemaOptions = DataSourceOptions & { schema?: string };

/**
 * `migrate`: applies the service's pending migrations and exits. This is what the Kubernetes Job and
 * the local start run; exit code 1 with one line on failure.
 */
export async function migrateCommand(serviceName: string, options: SchemaOptions): Promise<void> {
  try {
    const report = await runMigrations(options);
    const applied = report.applied.length > 0 ? report.applied.join(', ') : 'nothing pending';
    process.stdout.write(`${serviceName}: schema "${report.schema}" is up to date (applied: ${applied})\n`);
  } catch (error) {
    process.stderr.write(
      `${serviceName}: migration failed: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exitCode = 1;
  }
}

/**
 * The SQL that would bring the migrated schema in line with the entities (empty when migrations and
 * entities agree). Used to generate migrations and, in tests, to prove there is no drift.
 */
export async function pendingSchemaChanges(
  options: SchemaOptions,
): Promise<{ up: string[]; down: string[] }> {
  const dataSource = new DataSource(options);
  await dataSource.initialize();
  try {
    const log = await dataSource.driver.createSchemaBuilder().log();
    return {
      up: log.upQueries.map((query) => query.query),
      down: log.downQueries.map((query) => query.query).reverse(),
    };
  } finally {
    await dataSource.destroy();
  }
}

/**
 * `migration-generate <PascalName>`: migrates a scratch database, then writes the difference between
 * it and the entities as a timestamped migration class to review by hand and list in the service's
 * migrations index.
 */
export async function generateMigrationCommand(
  options: SchemaOptions,
  name: string,
  directory: string,
): Promise<void> {
  if (!/^[A-Z][A-Za-z0-9]+$/.test(name)) {
    throw new Error('give the migration a PascalCase name, e.g. AddProjectBudget');
  }
  await runMigrations(options);
  const { up, down } = await pendingSchemaChanges(options);
  if (up.length === 0) {
    process.stdout.write('entities and migrations agree: nothing to generate\n');
    return;
  }
  const timestamp = Date.now();
  const className = `${name}${timestamp}`;
  const statements = (queries: string[]): string =>
    queries.map((query) => `    await queryRunner.query(\`${query.replace(/`/g, '\\`')}\`);`).join('\n');
  const file = join(directory, `${timestamp}-${name}.ts`);
  writeFileSync(
    file,
    `import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ${className} implements MigrationInterface {
  name = '${className}';

  async up(queryRunner: QueryRunner): Promise<void> {
${statements(up)}
  }

  async down(queryRunner: QueryRunner): Promise<void> {
${statements(down)}
  }
}
`,
  );
  process.stdout.write(`wrote ${file}: review it, then add ${className} to the migrations index\n`);
}
