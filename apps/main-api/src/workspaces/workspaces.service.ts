import { Injectable } from '@nestjs/common';
import type { ListQueryDto, ListAnswer } from '@platform/contracts';
import { WorkspaceDto, type CreateWorkspaceDto, type UpdateWorkspaceDto } from './dto/workspace.dto';
import type { Workspace } from './workspace.entity';
import { WorkspacesRepository } from './workspaces.repository';

@Injectable()
export class WorkspacesService {
  constructor(private readonly workspaces: WorkspacesRepository) {}

  create(body: CreateWorkspaceDto): Promise<Workspace> {
    return this.workspaces.create({
      name: body.name,
      active: body.active ?? true,
      description: body.description ?? null,
    });
  }

  list(query: ListQueryDto): Promise<ListAnswer<WorkspaceDto>> {
    return this.workspaces.list(query, (workspace) => WorkspaceDto.from(workspace));
  }

  get(id: number): Promise<Workspace> {
    return this.workspaces.get(id);
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
