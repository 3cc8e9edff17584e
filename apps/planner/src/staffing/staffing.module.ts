import { Module } from '@nestjs/common';
import { AvailabilityModule } from '../availability/availability.module';
import { PlaceholdersModule } from '../placeholders/placeholders.module';
import { StaffingController } from './staffing.controller';
import { StaffingRepository } from './staffing.repository';
import { StaffingService } from './staffing.service';

/** Placeholders' candidates and demand against supply (issue 39), on the availability read. */
@Module({
  imports: [AvailabilityModule, PlaceholdersModule],
  controllers: [StaffingController],
  providers: [StaffingService, StaffingRepository],
})
export class StaffingModule {}
