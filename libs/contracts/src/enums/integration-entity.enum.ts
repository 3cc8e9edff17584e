/** The `{entity}` path segments of the integrations service (docs/spec/decisions.md §7). */
export enum IntegrationEntity {
  Brands = 'brands',
  Clients = 'clients',
  Contracts = 'contracts',
  Positions = 'positions',
  PositionCategories = 'position-categories',
  Projects = 'projects',
  Teams = 'teams',
  Users = 'users',
  UserLeaves = 'user-leaves',
  Workspaces = 'workspaces',
  WorkingTime = 'working-time',
}

export const INTEGRATION_ENTITIES: readonly IntegrationEntity[] = Object.values(IntegrationEntity);
