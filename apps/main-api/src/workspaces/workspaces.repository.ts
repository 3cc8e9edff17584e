import { Injectable } from '@nestjs/common';
import { FeatureRepository, RequestTenantScope } from '@platform/database';
import { ResourceNotFoundError } from '../errors/main-api.errors';
import { Workspace } from './workspace.entity';

/** Workspaces of the request's company. */
@Injectable()
export class WorkspacesRepository extends FeatureRepository<Workspace> {
  constructor(scope: RequestTenantScope) {
    super(scope, {
      entity: Workspace,
      alias: 'workspace',
      filters: {
        name: { kind: 'text', column: 'name' },
        active: { kind: 'boolean', column: 'active' },
      },
      sorts: { name: 'name' },
      notFound: (id) => new ResourceNotFoundError(`Workspace ${id}`),
    });
  }
}
