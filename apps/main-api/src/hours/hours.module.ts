import { Module } from '@nestjs/common';
import { BatchRunner } from '@platform/database';
import { HoursBatchController } from './hours-batch.controller';
import { HoursController } from './hours.controller';
import { HoursRepository } from './hours.repository';
import { HoursService } from './hours.service';
import { TimeEntriesController } from './time-entries.controller';
import { TimesheetsController } from './timesheets.controller';
import { TimesheetsRepository } from './timesheets.repository';
import { TimesheetsService } from './timesheets.service';

@Module({
  // The batch route before `hours/:id`, though their methods differ: the literal path reads first.
  controllers: [HoursBatchController, HoursController, TimeEntriesController, TimesheetsController],
  providers: [HoursRepository, HoursService, TimesheetsRepository, TimesheetsService, BatchRunner],
  exports: [HoursService],
})
export class HoursModule {}
