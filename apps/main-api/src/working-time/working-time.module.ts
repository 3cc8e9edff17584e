import { Module } from '@nestjs/common';
import { WorkingTimeController } from './working-time.controller';
import { WorkingTimeService } from './working-time.service';

@Module({
  controllers: [WorkingTimeController],
  providers: [WorkingTimeService],
  exports: [WorkingTimeService],
})
export class WorkingTimeModule {}
