import type { Type } from '@nestjs/common';
import { IntegrationEntity } from '@platform/contracts';
import {
  CreateBrandBody,
  CreateClientBody,
  CreateContractBody,
  CreatePositionBody,
  CreatePositionCategoryBody,
  CreateProjectBody,
  CreateTeamBody,
  CreateUserBody,
  CreateUserLeaveBody,
  CreateWorkingTimeBody,
  CreateWorkspaceBody,
  UpdateBrandBody,
  UpdateClientBody,
  UpdateContractBody,
  UpdatePositionBody,
  UpdatePositionCategoryBody,
  UpdateProjectBody,
  UpdateTeamBody,
  UpdateUserBody,
  UpdateWorkspaceBody,
} from './dto/entity-bodies.dto';

type Body = Record<string, unknown>;

/**
 * One entity of the integrations service: what can be done to it (interfaces.md "Entities handled by
 * the integrations service"), with which bodies, and how it reaches main-api (decisions §7, §8).
 */
export interface EntityOperations {
  entity: IntegrationEntity;
  /** main-api collection, e.g. `/v1/brands`. */
  mainApiPath: string;
  /** Body fields holding another entity's external id (same source), translated to its platform id. */
  references: Readonly<Record<string, IntegrationEntity>>;
  /** Where a create goes when it is not `POST {mainApiPath}`, and which platform id it yields. */
  createRequest?: (body: Body) => { method: 'POST' | 'PUT'; path: string; body: Body; platformId?: number };
  deleteRequest?: (platformId: number) => { method: 'PUT' | 'DELETE'; path: string; body?: Body };
  /** The answer to the caller, from main-api's. */
  render?: (platformEntity: Body) => Body;
  singular: string;
  className: string;
  createSummary: string;
  create?: Type;
  update?: Type;
  delete?: true;
  /** Attach and detach users. */
  users?: true;
  /** Assign a position. */
  position?: true;
}

/** The one list: the REST routes, the webhook actions and the main-api calls all come from it. */
const OPERATIONS: readonly EntityOperations[] = [
  {
    entity: IntegrationEntity.Brands,
    mainApiPath: '/v1/brands',
    references: { client_id: IntegrationEntity.Clients },
    singular: 'brand',
    className: 'Brands',
    createSummary: 'Create a brand of a client (client_id: external id)',
    create: CreateBrandBody,
    update: UpdateBrandBody,
    delete: true,
  },
  {
    entity: IntegrationEntity.Clients,
    mainApiPath: '/v1/clients',
    references: {},
    singular: 'client',
    className: 'Clients',
    createSummary: 'Create a client',
    create: CreateClientBody,
    update: UpdateClientBody,
    delete: true,
  },
  {
    entity: IntegrationEntity.Contracts,
    mainApiPath: '/v1/contracts',
    references: { client_id: IntegrationEntity.Clients },
    singular: 'contract',
    className: 'Contracts',
    createSummary: 'Create a contract of a client (client_id: external id)',
    create: CreateContractBody,
    update: UpdateContractBody,
    delete: true,
    users: true,
  },
  {
    entity: IntegrationEntity.Positions,
    mainApiPath: '/v1/positions',
    references: { category_id: IntegrationEntity.PositionCategories },
    singular: 'position',
    className: 'Positions',
    createSummary: 'Create a position (category_id: external id)',
    create: CreatePositionBody,
    update: UpdatePositionBody,
    delete: true,
  },
  {
    entity: IntegrationEntity.PositionCategories,
    mainApiPath: '/v1/position-categories',
    references: {},
    singular: 'position category',
    className: 'PositionCategories',
    createSummary: 'Create a position category',
    create: CreatePositionCategoryBody,
    update: UpdatePositionCategoryBody,
    delete: true,
  },
  {
    entity: IntegrationEntity.Projects,
    mainApiPath: '/v1/projects',
    references: {
      client_id: IntegrationEntity.Clients,
      brand_id: IntegrationEntity.Brands,
      pm_id: IntegrationEntity.Users,
      contract_id: IntegrationEntity.Contracts,
    },
    singular: 'project',
    className: 'Projects',
    createSummary:
      'Create a project (client_id, brand_id, pm_id, contract_id: external ids); 201 with the platform id in id',
    create: CreateProjectBody,
    update: UpdateProjectBody,
    delete: true,
  },
  {
    entity: IntegrationEntity.Teams,
    mainApiPath: '/v1/teams',
    references: {},
    singular: 'team',
    className: 'Teams',
    createSummary: 'Create a team',
    create: CreateTeamBody,
    update: UpdateTeamBody,
    users: true,
  },
  {
    entity: IntegrationEntity.Users,
    mainApiPath: '/v1/users',
    references: { user_position_id: IntegrationEntity.Positions },
    singular: 'user',
    className: 'Users',
    createSummary: 'Create a user (user_position_id: external id)',
    create: CreateUserBody,
    update: UpdateUserBody,
    delete: true,
    position: true,
  },
  {
    entity: IntegrationEntity.UserLeaves,
    mainApiPath: '/v1/user/leaves',
    references: { userId: IntegrationEntity.Users },
    singular: 'user leave',
    className: 'UserLeaves',
    createSummary:
      'Create a leave of a user (userId: external id); overlapping leaves are refused by main-api',
    create: CreateUserLeaveBody,
  },
  {
    entity: IntegrationEntity.Workspaces,
    mainApiPath: '/v1/workspaces',
    references: {},
    // interfaces.md "Workspace (integrations)": exactly these response fields.
    render: (workspace) => ({
      id: workspace.id,
      name: workspace.name,
      active: workspace.active,
      description: workspace.description,
      company_id: workspace.company_id,
      created_at: workspace.created_at,
      updated_at: workspace.updated_at,
    }),
    singular: 'workspace',
    className: 'Workspaces',
    createSummary: 'Create a workspace',
    create: CreateWorkspaceBody,
    update: UpdateWorkspaceBody,
  },
  {
    entity: IntegrationEntity.WorkingTime,
    // A user's working week is one entity here: create sets it, delete empties it. Its platform id
    // is the user's.
    mainApiPath: '/v1/working-time/users',
    references: { user_id: IntegrationEntity.Users },
    createRequest: (body) => ({
      method: 'PUT',
      path: `/v1/working-time/users/${Number(body.user_id)}`,
      body: { entries: body.entries },
      platformId: Number(body.user_id),
    }),
    deleteRequest: (userId) => ({
      method: 'PUT',
      path: `/v1/working-time/users/${userId}`,
      body: { entries: [] },
    }),
    singular: 'working week',
    className: 'WorkingTime',
    createSummary: "Set a user's working week (user_id: external id); delete empties it",
    create: CreateWorkingTimeBody,
    delete: true,
  },
];

/** By entity; every entity of IntegrationEntity has exactly one entry (checked at start-up). */
export const ENTITY_OPERATIONS: Readonly<Record<IntegrationEntity, EntityOperations>> = Object.fromEntries(
  OPERATIONS.map((operations) => [operations.entity, operations]),
) as Record<IntegrationEntity, EntityOperations>;

for (const entity of Object.values(IntegrationEntity)) {
  if (!ENTITY_OPERATIONS[entity]) {
    throw new Error(`integrations: no operations defined for ${entity}`);
  }
}
