import { Module } from '@nestjs/common';
import { LedgerModule } from '../ledger/ledger.module';
import { AvailabilityController } from './availability.controller';
import { AvailabilityService } from './availability.service';

/** Who is free, when: the availability read and search on the ledger and the one calculator (issue 38). */
@Module({
  imports: [LedgerModule],
  controllers: [AvailabilityController],
  providers: [AvailabilityService],
  exports: [AvailabilityService],
})
export class AvailabilityModule {}
