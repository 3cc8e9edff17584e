import type { Type } from '@nestjs/common';
import { IntegrationEntity } from '@platform/contracts';
import { BrandResponseDto } from './dto/brand.response.dto';
import { ClientResponseDto } from './dto/client.response.dto';
import { ContractResponseDto } from './dto/contract.response.dto';
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
import { PositionCategoryResponseDto } from './dto/position-category.response.dto';
import { PositionResponseDto } from './dto/position.response.dto';
import { ProjectResponseDto } from './dto/project.response.dto';
import { TeamResponseDto } from './dto/team.response.dto';
import { UserLeaveResponseDto } from './dto/user-leave.response.dto';
import { UserResponseDto } from './dto/user.response.dto';
import { WorkingTimeEntryResponseDto } from './dto/working-time.response.dto';
import { WorkspaceResponseDto } from './dto/workspace.response.dto';

type Body = Record<string, unknown>;

/** What integrations answers for each entity (the response DTOs the routes document). */
export interface EntityResponses {
  [IntegrationEntity.Brands]: BrandResponseDto;
  [IntegrationEntity.Clients]: ClientResponseDto;
  [IntegrationEntity.Contracts]: ContractResponseDto;
  [IntegrationEntity.Positions]: PositionResponseDto;
  [IntegrationEntity.PositionCategories]: PositionCategoryResponseDto;
  [IntegrationEntity.Projects]: ProjectResponseDto;
  [IntegrationEntity.Teams]: TeamResponseDto;
  [IntegrationEntity.Users]: UserResponseDto;
  [IntegrationEntity.UserLeaves]: UserLeaveResponseDto;
  [IntegrationEntity.Workspaces]: WorkspaceResponseDto;
  /** A user's working week: its days. */
  [IntegrationEntity.WorkingTime]: WorkingTimeEntryResponseDto[];
}

/**
 * The answer for an entity: its response DTO, or a plain body where the entity is known only at run
 * time (a webhook event names it).
 */
export type EntityAnswer<E extends IntegrationEntity> = IntegrationEntity extends E
  ? Body
  : EntityResponses[E];

/** The response DTO class, in a list (`[Dto]`, as `@ApiProperty({ type: [Dto] })`) for a list answer. */
export type ResponseType<Answer> = Answer extends readonly (infer Item)[] ? [Type<Item>] : Type<Answer>;

/**
 * One entity of the integrations service: how it reaches main-api (decisions §7, §8), what it
 * answers, and the bodies webhook events are validated with.
 */
export interface EntityOperations<E extends IntegrationEntity = IntegrationEntity> {
  /** main-api collection, e.g. `/v1/brands`. */
  mainApiPath: string;
  /** Body fields holding another entity's external id (same source), translated to its platform id. */
  references: Readonly<Record<string, IntegrationEntity>>;
  /** Where a create goes when it is not `POST {mainApiPath}`, and which platform id it yields. */
  createRequest?: (body: Body) => { method: 'POST' | 'PUT'; path: string; body: Body; platformId?: number };
  deleteRequest?: (platformId: number) => { method: 'PUT' | 'DELETE'; path: string; body?: Body };
  /** The answer to the caller: main-api's, shaped by this DTO (only its fields, its date-times). */
  response: ResponseType<EntityResponses[E]>;
  /** Bodies of the operations interfaces.md lists for the entity (webhook events are checked with them). */
  create?: Type;
  update?: Type;
  delete?: true;
}

/** The one list: the main-api calls, the answers and the webhook actions all come from it. */
export const ENTITY_OPERATIONS: { readonly [E in IntegrationEntity]: EntityOperations<E> } = {
  [IntegrationEntity.Brands]: {
    mainApiPath: '/v1/brands',
    references: { client_id: IntegrationEntity.Clients },
    response: BrandResponseDto,
    create: CreateBrandBody,
    update: UpdateBrandBody,
    delete: true,
  },
  [IntegrationEntity.Clients]: {
    mainApiPath: '/v1/clients',
    references: {},
    response: ClientResponseDto,
    create: CreateClientBody,
    update: UpdateClientBody,
    delete: true,
  },
  [IntegrationEntity.Contracts]: {
    mainApiPath: '/v1/contracts',
    references: { client_id: IntegrationEntity.Clients },
    response: ContractResponseDto,
    create: CreateContractBody,
    update: UpdateContractBody,
    delete: true,
  },
  [IntegrationEntity.Positions]: {
    mainApiPath: '/v1/positions',
    references: { category_id: IntegrationEntity.PositionCategories },
    response: PositionResponseDto,
    create: CreatePositionBody,
    update: UpdatePositionBody,
    delete: true,
  },
  [IntegrationEntity.PositionCategories]: {
    mainApiPath: '/v1/position-categories',
    references: {},
    response: PositionCategoryResponseDto,
    create: CreatePositionCategoryBody,
    update: UpdatePositionCategoryBody,
    delete: true,
  },
  [IntegrationEntity.Projects]: {
    mainApiPath: '/v1/projects',
    references: {
      client_id: IntegrationEntity.Clients,
      brand_id: IntegrationEntity.Brands,
      pm_id: IntegrationEntity.Users,
      contract_id: IntegrationEntity.Contracts,
    },
    response: ProjectResponseDto,
    create: CreateProjectBody,
    update: UpdateProjectBody,
    delete: true,
  },
  [IntegrationEntity.Teams]: {
    mainApiPath: '/v1/teams',
    references: {},
    response: TeamResponseDto,
    create: CreateTeamBody,
    update: UpdateTeamBody,
  },
  [IntegrationEntity.Users]: {
    mainApiPath: '/v1/users',
    references: { user_position_id: IntegrationEntity.Positions },
    response: UserResponseDto,
    create: CreateUserBody,
    update: UpdateUserBody,
    delete: true,
  },
  [IntegrationEntity.UserLeaves]: {
    mainApiPath: '/v1/user/leaves',
    references: { userId: IntegrationEntity.Users },
    response: UserLeaveResponseDto,
    create: CreateUserLeaveBody,
  },
  [IntegrationEntity.Workspaces]: {
    mainApiPath: '/v1/workspaces',
    references: {},
    response: WorkspaceResponseDto,
    create: CreateWorkspaceBody,
    update: UpdateWorkspaceBody,
  },
  [IntegrationEntity.WorkingTime]: {
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
    response: [WorkingTimeEntryResponseDto],
    create: CreateWorkingTimeBody,
    delete: true,
  },
};
