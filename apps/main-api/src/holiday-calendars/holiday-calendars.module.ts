import { Module } from '@nestjs/common';
import { HolidayCalendarsController } from './holiday-calendars.controller';
import { HolidayCalendarsRepository, HolidaysRepository } from './holiday-calendars.repository';
import { HolidayCalendarsService } from './holiday-calendars.service';
import { UserCalendarsController } from './user-calendars.controller';
import { UserCalendarsRepository } from './user-calendars.repository';
import { UserCalendarsService } from './user-calendars.service';

@Module({
  controllers: [HolidayCalendarsController, UserCalendarsController],
  providers: [
    HolidayCalendarsRepository,
    HolidaysRepository,
    HolidayCalendarsService,
    UserCalendarsRepository,
    UserCalendarsService,
  ],
  exports: [HolidayCalendarsService, UserCalendarsService],
})
export class HolidayCalendarsModule {}
