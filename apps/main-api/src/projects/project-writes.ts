import { Injectable } from '@nestjs/common';
import { PrincipalContext } from '@platform/auth';
import { assertWritePrecondition } from '@platform/runtime';
import { ProjectStatus } from './project-status';
import type { CreateProjectDto, UpdateProjectDto } from './dto/project-write.dto';
import { ProjectReads } from './project-reads';
import { ProjectReferences } from './project-references';
import {
  applyProjectFields,
  checkEstimationAndIncome,
  checkProjectDates,
  checkUniqueLines,
  ratecardField,
} from './project-rules';
import { Project, type ProjectColumns } from './project.entity';
import { ProjectWritesRepository } from './project-writes.repository';

/** Creating and changing projects with their estimate lines (docs/spec/decisions.md §8). */
@Injectable()
export class ProjectWrites {
  constructor(
    private readonly principals: PrincipalContext,
    private readonly writes: ProjectWritesRepository,
    private readonly reads: ProjectReads,
    private readonly references: ProjectReferences,
  ) {}

  async create(body: CreateProjectDto): Promise<number> {
    const principal = this.principals.get();
    const draft = Object.assign(new Project(), {
      companyId: principal.companyId,
      createdBy: principal.userId ?? null,
      name: body.name,
      clientId: body.client_id,
      brief: body.brief ?? '',
      status: ProjectStatus.Active,
      labels: [],
    });
    applyProjectFields(draft, body);
    await this.validate(draft, body, []);
    return this.writes.insert(draft, body);
  }

  async update(id: number, body: UpdateProjectDto): Promise<number> {
    const project = await this.reads.requireProject(id);
    // Before the rules: a stale edit is refused as such, whatever else is wrong with it.
    assertWritePrecondition(Project, id, project.version, `Project ${id}`);
    const storedLabels = project.labels;
    applyProjectFields(project, body);
    await this.validate(project, body, storedLabels);
    await this.writes.update(project, body);
    return id;
  }

  /**
   * The order decides which error a body with several faults gets (and is what clients see today):
   * dates and references (400 naming the field), the business rules (422 AC004), then estimate lines
   * (their references, then each id once). All before the write: its transaction only writes.
   */
  private async validate(
    project: ProjectColumns,
    body: UpdateProjectDto,
    storedLabels: number[],
  ): Promise<void> {
    checkProjectDates(project);
    await this.references.requireOfProject(project, ratecardField(body));
    await this.references.requireLabels(body, storedLabels);
    checkEstimationAndIncome(project);
    await this.references.requireOfEstimateLines(body);
    if (body.users_positions) {
      checkUniqueLines(body.users_positions, 'users_positions');
    }
    if (body.categories) {
      checkUniqueLines(body.categories, 'categories');
    }
  }
}
