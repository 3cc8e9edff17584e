import { Module } from '@nestjs/common';
import { LabelsModule } from '../labels/labels.module';
import { LeavesModule } from '../leaves/leaves.module';
import { ProjectsModule } from '../projects/projects.module';
import { TasksModule } from '../tasks/tasks.module';
import { HolidayCalendarsModule } from '../holiday-calendars/holiday-calendars.module';
import { UsersModule } from '../users/users.module';
import { WorkingTimeModule } from '../working-time/working-time.module';
import { PlannerLookupsController } from './planner-lookups.controller';
import { PlannerLookupsRepository } from './planner-lookups.repository';
import { PlannerLookupsService } from './planner-lookups.service';

@Module({
  imports: [
    UsersModule,
    ProjectsModule,
    WorkingTimeModule,
    LeavesModule,
    LabelsModule,
    TasksModule,
    HolidayCalendarsModule,
  ],
  controllers: [PlannerLookupsController],
  providers: [PlannerLookupsService, PlannerLookupsRepository],
})
export class PlannerLookupsModule {}
