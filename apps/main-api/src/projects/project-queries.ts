import type { FilterDefinitions } from '@platform/database';
import type { SelectQueryBuilder } from 'typeorm';
import { PROJECT_STATUS_ALIASES, ProjectStatus } from './project-status';
import { INCOME_TYPES, type Project } from './project.entity';

export const PROJECT_FILTERS: FilterDefinitions = {
  // Batch look-up by ids (the planner names other projects of its users in one call).
  id: { kind: 'integer', column: 'id' },
  client_id: { kind: 'integer', column: 'client_id' },
  status: {
    kind: 'enum',
    column: 'status',
    values: Object.values(ProjectStatus),
    aliases: PROJECT_STATUS_ALIASES,
  },
  archived: { kind: 'boolean', column: 'archived' },
  billable: { kind: 'boolean', column: 'billable' },
  brand_id: { kind: 'integer', column: 'brand_id' },
  product_id: { kind: 'integer', column: 'product_id' },
  pm_id: { kind: 'integer', column: 'pm_id' },
  income_type: { kind: 'enum', column: 'income_type', values: INCOME_TYPES },
  health: { kind: 'integer', column: 'health' },
  name: { kind: 'text', column: 'name' },
};

/**
 * A project with the fields of its relations that its read shape shows (ProjectDto). Only those
 * columns: a list page of 50 spent more time reading, parsing and collecting the relations' other
 * columns (timestamps above all) than the projects' own.
 */
export function withRelations(query: SelectQueryBuilder<Project>): SelectQueryBuilder<Project> {
  return query
    .leftJoin('project.client', 'client')
    .addSelect(['client.id', 'client.name', 'client.archived'])
    .leftJoin('project.pm', 'pm')
    .addSelect(['pm.id', 'pm.firstName', 'pm.lastName', 'pm.email', 'pm.roleId']);
}
