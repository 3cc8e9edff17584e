import { Module } from '@nestjs/common';
import { HoursController } from './hours.controller';
import { HoursRepository } from './hours.repository';
import { HoursService } from './hours.service';

@Module({
  controllers: [HoursController],
  providers: [HoursRepository, HoursService],
  exports: [HoursService],
})
export class HoursModule {}
