import { Injectable } from '@nestjs/common';
import type { ProjectNameDto } from './dto/project-name.dto';
import { ProjectReads } from './project-reads';
import type { ProjectColumns } from './project.entity';

/**
 * What other features may ask of projects (project finance, the planner's look-ups). Kept narrow so
 * their reach into this feature stays visible; this feature's own routes use ProjectReads and
 * ProjectWrites directly.
 */
@Injectable()
export class ProjectsService {
  constructor(private readonly reads: ProjectReads) {}

  /** The project, if the caller may read it; 404 otherwise. */
  requireProject(id: number): Promise<ProjectColumns> {
    return this.reads.requireProject(id);
  }

  namesByIds(ids: number[]): Promise<ProjectNameDto[]> {
    return this.reads.namesByIds(ids);
  }
}
