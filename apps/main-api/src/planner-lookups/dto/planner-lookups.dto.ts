import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDateOnly, IsEntityIdList, MayBeAbsent } from '@platform/contracts';

import { LabelDto } from '../../labels/dto/label.dto';
import { UserLeaveDto } from '../../leaves/dto/user-leave.dto';
import { ProjectNameDto } from '../../projects/dto/project-name.dto';
import { UserDto } from '../../users/dto/user.dto';
import { WorkingTimeEntryDto } from '../../working-time/dto/working-time.dto';

/** `GET /planner/lookups`: what the planner needs of main-api for one request, asked at once. */
export class PlannerLookupsQueryDto {
  @ApiPropertyOptional({ example: '12,13', description: 'Comma-separated user ids (at most 500)' })
  @MayBeAbsent()
  @IsEntityIdList()
  user_ids?: string;

  @ApiPropertyOptional({ example: '7,8', description: 'Comma-separated project ids (at most 500)' })
  @MayBeAbsent()
  @IsEntityIdList()
  project_ids?: string;

  @ApiPropertyOptional({ example: '31,32', description: 'Comma-separated task ids (at most 500)' })
  @MayBeAbsent()
  @IsEntityIdList()
  task_ids?: string;

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

/** A task among `task_ids`, and the project it belongs to. */
export class PlannerTaskDto {
  @ApiProperty({ example: 31 }) id!: number;
  @ApiProperty({ example: 7 }) project_id!: number;
}

export class PlannerLookupsDto {
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
    type: [UserLeaveDto],
    description: "Those users' leaves touching [from, to]; empty without a period",
  })
  leaves!: UserLeaveDto[];

  @ApiProperty({ type: [LabelDto], description: 'The user labels those users carry' })
  labels!: LabelDto[];

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
