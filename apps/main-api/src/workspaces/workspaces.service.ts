import { Injectable } from '@nestjs/common';
import type { ListQueryDto, Paginated } from '@platform/contracts';
import { TenantRepositoryFactory, type FilterDefinitions, type TenantRepository } from '@platform/database';
import { WorkspaceDto, type CreateWorkspaceDto, type UpdateWorkspaceDto } from './dto/workspace.dto';
import { Workspace } from './workspace.entity';
import { ResourceNotFoundError } from '../errors/main-api.errors';

const WORKSPACE_FILTERS: FilterDefinitions = {
  name: { kind: 'text', column: 'name' },
  active: { kind: 'boolean', column: 'active' },
};

@Injectable()
export class WorkspacesService {
  private readonly workspaces: TenantRepository<Workspace>;

  constructor(repositories: TenantRepositoryFactory) {
    this.workspaces = repositories.for(Workspace);
  }

  create(body: CreateWorkspaceDto): Promise<Workspace> {
    return this.workspaces.create({
      name: body.name,
      active: body.active ?? true,
      description: body.description ?? null,
    });
  }

  list(query: ListQueryDto): Promise<Paginated<WorkspaceDto> | WorkspaceDto[]> {
    return this.workspaces.paginate(
      this.workspaces.queryBuilder('workspace'),
      'workspace',
      query,
      WORKSPACE_FILTERS,
      (workspace) => WorkspaceDto.from(workspace),
    );
  }

  async get(id: number): Promise<Workspace> {
    const workspace = await this.workspaces.findById(id);
    if (!workspace) {
      throw new ResourceNotFoundError(`Workspace ${id}`);
    }
    return workspace;
  }

  async update(id: number, body: UpdateWorkspaceDto): Promise<Workspace> {
    const workspace = await this.get(id);
    Object.assign(workspace, {
      ...(body.name !== undefined && { name: body.name }),
      ...(body.active !== undefined && { active: body.active }),
      ...(body.description !== undefined && { description: body.description }),
    });
    return this.workspaces.save(workspace);
  }

  async remove(id: number): Promise<Workspace> {
    return this.workspaces.softRemove(await this.get(id));
  }
}
