import { Module } from '@nestjs/common';
import { WorkingSchedulesController } from './working-schedules.controller';
import { WorkingSchedulesService } from './working-schedules.service';
import { WorkingTimeController } from './working-time.controller';
import { WorkingTimeRepository } from './working-time.repository';
import { WorkingTimeService } from './working-time.service';

@Module({
  controllers: [WorkingTimeController, WorkingSchedulesController],
  providers: [WorkingTimeRepository, WorkingTimeService, WorkingSchedulesService],
  exports: [WorkingTimeService],
})
export class WorkingTimeModule {}
