import { Module } from '@nestjs/common';
import { WorkingTimeController } from './working-time.controller';
import { WorkingTimeRepository } from './working-time.repository';
import { WorkingTimeService } from './working-time.service';

@Module({
  controllers: [WorkingTimeController],
  providers: [WorkingTimeRepository, WorkingTimeService],
  exports: [WorkingTimeService],
})
export class WorkingTimeModule {}
