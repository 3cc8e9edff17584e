import { ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import { PrincipalContext } from '@platform/auth';
import { isCalendarDate, Role, type ListQueryDto, type Paginated } from '@platform/contracts';
import {
  paginate,
  TenantRepositoryFactory,
  type FilterDefinitions,
  type TenantRepository,
} from '@platform/database';
import { RequestValidationError } from '@platform/runtime';
import { Position } from '../positions/position.entity';
import { Project } from '../projects/project.entity';
import { Task } from '../tasks/task.entity';
import { User } from '../users/user.entity';
import { TimeEntryDto, type CreateTimeEntryDto } from './dto/time-entry.dto';
import { TimeEntry } from './time-entry.entity';

const HOUR_FILTERS: FilterDefinitions = {
  user_id: { kind: 'integer', column: 'user_id' },
  project_id: { kind: 'integer', column: 'project_id' },
  task_id: { kind: 'integer', column: 'task_id' },
  user_position_id: { kind: 'integer', column: 'user_position_id' },
};

const LOGS_FOR_OTHERS = new Set<Role>([Role.CLevel, Role.Director, Role.ProjectManager]);

@Injectable()
export class HoursService {
  private readonly entries: TenantRepository<TimeEntry>;

  constructor(
    private readonly repositories: TenantRepositoryFactory,
    private readonly principals: PrincipalContext,
  ) {
    this.entries = repositories.for(TimeEntry);
  }

  async create(body: CreateTimeEntryDto): Promise<TimeEntry> {
    const principal = this.principals.get();
    if (!LOGS_FOR_OTHERS.has(principal.roleId) && principal.userId !== body.user_id) {
      throw new ForbiddenException('Your role may only log your own hours');
    }
    if (!isCalendarDate(body.date)) {
      throw new RequestValidationError([
        { field: 'date', validation: 'isDate', message: 'date must be a real calendar date' },
      ]);
    }
    const user = await this.repositories.for(User).requireReference(body.user_id, 'user_id');
    await this.repositories.for(Project).requireReference(body.project_id, 'project_id');
    if (body.task_id) {
      const task = await this.repositories.for(Task).requireReference(body.task_id, 'task_id');
      if (task.projectId !== body.project_id) {
        throw new RequestValidationError([
          {
            field: 'task_id',
            validation: 'ofProject',
            message: `task_id ${body.task_id} is not a task of project ${body.project_id}`,
          },
        ]);
      }
    }
    const positionId = body.user_position_id ?? user.userPositionId;
    if (body.user_position_id) {
      await this.repositories.for(Position).requireReference(body.user_position_id, 'user_position_id');
    }
    return this.entries.create({
      userId: body.user_id,
      projectId: body.project_id,
      taskId: body.task_id ?? null,
      userPositionId: positionId ?? null,
      date: body.date,
      hours: String(body.hours),
    });
  }

  list(query: ListQueryDto): Promise<Paginated<TimeEntryDto> | TimeEntryDto[]> {
    return paginate(this.entries.queryBuilder('entry'), 'entry', query, HOUR_FILTERS, (entry) =>
      TimeEntryDto.from(entry),
    );
  }

  async get(id: number): Promise<TimeEntry> {
    const entry = await this.entries.findById(id);
    if (!entry) {
      throw new NotFoundException(`Time entry ${id} not found`);
    }
    return entry;
  }

  async remove(id: number): Promise<TimeEntry> {
    const entry = await this.get(id);
    await this.entries.delete(entry);
    return entry;
  }
}
