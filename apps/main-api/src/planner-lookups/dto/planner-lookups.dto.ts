import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsDateOnly,
  IsEntityIdList,
  IsQueryIntegerInRange,
  MAX_ENTITY_ID,
  MAX_IDS_PER_LOOKUP,
  MayBeAbsent,
} from '@platform/contracts';
import { IsIn } from 'class-validator';

import { LabelDto } from '../../labels/dto/label.dto';
import { UserLeaveDto } from '../../leaves/dto/user-leave.dto';
import { ProjectNameDto } from '../../projects/dto/project-name.dto';
import { UserDto } from '../../users/dto/user.dto';
import { WorkingScheduleWeekDto, WorkingTimeEntryDto } from '../../working-time/dto/working-time.dto';

/** `GET /planner/lookups`: what the planner needs of main-api for one request, asked at once. */
export class PlannerLookupsQueryDto {
  @ApiPropertyOptional({ example: '12,13', description: 'Comma-separated user ids (at most 500)' })
  @MayBeAbsent()
  @IsEntityIdList()
  user_ids?: string;

  @ApiPropertyOptional({
    example: 4,
    description:
      'The people of this team (current ones), instead of or within `user_ids`; the answer names them in `people`',
  })
  @MayBeAbsent()
  @IsQueryIntegerInRange(1, MAX_ENTITY_ID)
  team_id?: number;

  @ApiPropertyOptional({
    example: 3,
    description: 'The people in this position (current ones), instead of or within `user_ids`',
  })
  @MayBeAbsent()
  @IsQueryIntegerInRange(1, MAX_ENTITY_ID)
  position_id?: number;

  @ApiPropertyOptional({
    enum: ['true', 'false'],
    description: 'true: every current person of the company (at most 500), instead of `user_ids`',
  })
  @MayBeAbsent()
  @IsIn(['true', 'false'])
  all_users?: 'true' | 'false';

  @ApiPropertyOptional({ example: '7,8', description: 'Comma-separated project ids (at most 500)' })
  @MayBeAbsent()
  @IsEntityIdList()
  project_ids?: string;

  @ApiPropertyOptional({ example: '31,32', description: 'Comma-separated task ids (at most 500)' })
  @MayBeAbsent()
  @IsEntityIdList()
  task_ids?: string;

  @ApiPropertyOptional({ example: '3,5', description: 'Comma-separated position ids (at most 500)' })
  @MayBeAbsent()
  @IsEntityIdList()
  position_ids?: string;

  @ApiPropertyOptional({
    example: '2',
    description: 'Comma-separated position category ids (at most 500)',
  })
  @MayBeAbsent()
  @IsEntityIdList()
  category_ids?: string;

  @ApiPropertyOptional({
    example: '4,9',
    description: 'Comma-separated label ids: those that are user labels are answered in `labels` too',
  })
  @MayBeAbsent()
  @IsEntityIdList()
  label_ids?: string;

  @ApiPropertyOptional({
    example: '2026-12-01',
    description: 'First day of the period whose leaves are answered (YYYY-MM-DD); with `to`',
  })
  @MayBeAbsent()
  @IsDateOnly()
  from?: string;

  @ApiPropertyOptional({
    example: '2026-12-31',
    description: 'Last day of the period whose leaves are answered (YYYY-MM-DD), included; with `from`',
  })
  @MayBeAbsent()
  @IsDateOnly()
  to?: string;
}

/** A day off of a person's holiday calendar in force that day. */
export class PlannerHolidayDto {
  @ApiProperty({ example: 12 }) user_id!: number;
  @ApiProperty({ example: '2027-12-25' }) date!: string;
  @ApiProperty({ example: 'Christmas Day' }) name!: string;
  @ApiProperty({ type: Number, nullable: true, example: null, description: 'null: the whole working day' })
  hours_off!: number | null;
}

/** A position among `position_ids`, and its category. */
export class PlannerPositionDto {
  @ApiProperty({ example: 3 }) id!: number;
  @ApiProperty({ example: 'Designer' }) name!: string;
  @ApiProperty({ type: 'integer', nullable: true, example: 2 }) category_id!: number | null;
}

/** A position category among `category_ids`. */
export class PlannerCategoryDto {
  @ApiProperty({ example: 2 }) id!: number;
  @ApiProperty({ example: 'Creative' }) name!: string;
}

/** A task among `task_ids`, and the project it belongs to. */
export class PlannerTaskDto {
  @ApiProperty({ example: 31 }) id!: number;
  @ApiProperty({ example: 7 }) project_id!: number;
}

export class PlannerLookupsDto {
  @ApiProperty({
    example: '18342',
    description:
      "The company's change-feed cursor when the look-up was read: any later change of what it answers " +
      '(working time, leaves, holidays, calendars, people) moves it, so the planner can tag what it derives',
  })
  revision!: string;

  @ApiProperty({
    type: [Number],
    example: [12, 13],
    description:
      'The ids of the users answered (`users`): of user_ids, or with team_id, position_id or all_users of that ' +
      `group (within user_ids, if given), at most ${MAX_IDS_PER_LOOKUP}`,
  })
  people!: number[];

  @ApiProperty({
    description: `true when the group has more than ${MAX_IDS_PER_LOOKUP} people: only the first (by id) are answered`,
  })
  people_truncated!: boolean;

  @ApiProperty({
    type: [UserDto],
    description: 'The users among `user_ids` (deleted ones too), as `GET /users?ids=` answers them',
  })
  users!: UserDto[];

  @ApiProperty({
    type: [ProjectNameDto],
    description: 'The projects among `project_ids` the caller may read; others are absent',
  })
  projects!: ProjectNameDto[];

  @ApiProperty({
    description:
      '{ "<user_id>": WorkingTimeEntryDto[] } for the users among `user_ids` with a working week, ' +
      'as `GET /working-time/company/with/users` answers it',
    example: {
      '12': [
        {
          daily_hours: 8,
          day_of_week: 1,
          start_at: '09:00:00',
          end_at: '17:00:00',
          user_id: 12,
          break_time: 1,
        },
      ],
    },
  })
  working_time!: Record<string, WorkingTimeEntryDto[]>;

  @ApiProperty({
    description:
      '{ "<user_id>": [{ effective_from: "YYYY-MM-DD", entries: WorkingTimeEntryDto[] }] } for the users ' +
      'among `user_ids` with a schedule, oldest first: each working week from its first day until the next ' +
      "one's (the first also before it). With from and to, the one in force on `from` and every later one " +
      'starting on or before `to`; without a period, all of them',
    example: {
      '12': [
        {
          effective_from: '2027-01-01',
          entries: [
            {
              daily_hours: 8,
              day_of_week: 1,
              start_at: '09:00:00',
              end_at: '17:00:00',
              user_id: 12,
              break_time: 1,
            },
          ],
        },
        { effective_from: '2027-03-01', entries: [] },
      ],
    },
  })
  schedules!: Record<string, WorkingScheduleWeekDto[]>;

  @ApiProperty({
    type: [UserLeaveDto],
    description: "Those users' leaves touching [from, to]; empty without a period",
  })
  leaves!: UserLeaveDto[];

  @ApiProperty({
    type: [LabelDto],
    description: 'The user labels those users carry, and those among `label_ids` (only user labels)',
  })
  labels!: LabelDto[];

  @ApiProperty({
    type: [PlannerPositionDto],
    description: "The company's positions among `position_ids` (deleted ones absent), with their category",
  })
  positions!: PlannerPositionDto[];

  @ApiProperty({
    type: [PlannerCategoryDto],
    description: "The company's position categories among `category_ids` (deleted ones absent)",
  })
  categories!: PlannerCategoryDto[];

  @ApiProperty({
    type: [PlannerTaskDto],
    description: "The company's tasks among `task_ids` (deleted ones absent), with their project",
  })
  tasks!: PlannerTaskDto[];

  @ApiProperty({
    description: '{ "<user_id>": IANA time zone } for the users among `user_ids`',
    example: { '12': 'Europe/Paris' },
    type: 'object',
    additionalProperties: { type: 'string' },
  })
  time_zones!: Record<string, string>;

  @ApiProperty({
    type: [PlannerHolidayDto],
    description:
      "Those users' holidays in [from, to], each of the calendar in force that day; empty without a period",
  })
  holidays!: PlannerHolidayDto[];
}
