import { Injectable } from '@nestjs/common';
import { entityIdsOf, MAX_IDS_PER_LOOKUP } from '@platform/contracts';
import { RequestValidationError } from '@platform/runtime';
import { LabelsService } from '../labels/labels.service';
import { leavePeriod, LeavesService } from '../leaves/leaves.service';
import { ProjectsService } from '../projects/projects.service';
import { TasksService } from '../tasks/tasks.service';
import { UserCalendarsService } from '../holiday-calendars/user-calendars.service';
import { UsersService } from '../users/users.service';
import { WorkingTimeService } from '../working-time/working-time.service';
import type { PlannerLookupsDto, PlannerLookupsQueryDto } from './dto/planner-lookups.dto';
import { PlannerLookupsRepository } from './planner-lookups.repository';

/**
 * The planner's look-ups for one request (users, projects, working weeks, leaves, labels) in one
 * call. Each part is the answer of the endpoint that serves it alone, through the same service, so
 * the two ways of asking cannot drift apart. One call instead of five took four HTTP round trips
 * off every allocation report, and the report waited for the slowest of the five (bench/README.md,
 * round 4).
 */
@Injectable()
export class PlannerLookupsService {
  constructor(
    private readonly users: UsersService,
    private readonly projects: ProjectsService,
    private readonly workingTime: WorkingTimeService,
    private readonly leaves: LeavesService,
    private readonly labels: LabelsService,
    private readonly tasks: TasksService,
    private readonly calendars: UserCalendarsService,
    private readonly lookupsRepository: PlannerLookupsRepository,
  ) {}

  async lookups(query: PlannerLookupsQueryDto): Promise<PlannerLookupsDto> {
    if ((query.from === undefined) !== (query.to === undefined)) {
      throw new RequestValidationError([
        { field: 'to', validation: 'period', message: 'from and to go together: give both or neither' },
      ]);
    }
    const period =
      query.from !== undefined && query.to !== undefined ? { from: query.from, to: query.to } : null;
    if (period) {
      // Checked whether or not any user is asked for, so a bad period is always a 400.
      leavePeriod(period.from, period.to);
    }
    // Read before the rest: a change committed meanwhile moves the next look-up's revision.
    const revision = await this.lookupsRepository.revision();
    const { userIds, truncated } = await this.people(query);
    const projectIds = query.project_ids ? entityIdsOf(query.project_ids) : [];
    const taskIds = query.task_ids ? entityIdsOf(query.task_ids) : [];
    const positionIds = query.position_ids ? entityIdsOf(query.position_ids) : [];
    const categoryIds = query.category_ids ? entityIdsOf(query.category_ids) : [];
    const labelIds = query.label_ids ? entityIdsOf(query.label_ids) : [];
    const withUsers = userIds.length > 0;
    const [users, projects, workingTime, leaves, labels, tasks, calendars, positions, categories] =
      await Promise.all([
        withUsers ? this.users.byIds(userIds) : [],
        projectIds.length > 0 ? this.projects.namesByIds(projectIds) : [],
        withUsers ? this.workingTime.forPlanner(userIds, period) : { workingTime: {}, schedules: {} },
        withUsers && period ? this.leaves.list({ user_ids: userIds.join(','), ...period }) : [],
        withUsers || labelIds.length > 0 ? this.labels.ofModel('user') : [],
        taskIds.length > 0 ? this.tasks.projectsOf(taskIds) : [],
        withUsers ? this.calendars.forPlanner(userIds, period) : { timeZones: {}, holidays: [] },
        positionIds.length > 0 ? this.lookupsRepository.positions(positionIds) : [],
        categoryIds.length > 0 ? this.lookupsRepository.categories(categoryIds) : [],
      ]);
    const carried = new Set([...users.flatMap((user) => user.labels), ...labelIds]);
    return {
      revision,
      people: users.map((user) => user.id),
      people_truncated: truncated,
      users,
      projects,
      working_time: workingTime.workingTime,
      schedules: workingTime.schedules,
      leaves,
      labels: labels.filter((label) => carried.has(label.id)),
      tasks,
      time_zones: calendars.timeZones,
      holidays: calendars.holidays,
      positions,
      categories,
    };
  }

  /** The users asked for: `user_ids`, or a group (team, position, everyone), within `user_ids` if both. */
  private async people(query: PlannerLookupsQueryDto): Promise<{ userIds: number[]; truncated: boolean }> {
    const asked = query.user_ids ? entityIdsOf(query.user_ids) : [];
    const everyone = query.all_users === 'true';
    if (query.team_id === undefined && query.position_id === undefined && !everyone) {
      return { userIds: asked, truncated: false };
    }
    const group = await this.lookupsRepository.people({
      teamId: query.team_id,
      positionId: query.position_id,
    });
    const within = query.user_ids ? group.filter((id) => asked.includes(id)) : group;
    return {
      userIds: within.slice(0, MAX_IDS_PER_LOOKUP),
      truncated: within.length > MAX_IDS_PER_LOOKUP,
    };
  }
}
