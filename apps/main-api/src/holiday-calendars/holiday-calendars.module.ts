import { Module } from '@nestjs/common';
import { HolidayCalendarsController } from './holiday-calendars.controller';
import { HolidayCalendarsRepository, HolidaysRepository } from './holiday-calendars.repository';
import { HolidayCalendarsService } from './holiday-calendars.service';

@Module({
  controllers: [HolidayCalendarsController],
  providers: [HolidayCalendarsRepository, HolidaysRepository, HolidayCalendarsService],
  exports: [HolidayCalendarsService],
})
export class HolidayCalendarsModule {}
