import { Module } from '@nestjs/common';
import { LedgerModule } from '../ledger/ledger.module';
import { PlaceholdersController } from './placeholders.controller';
import { PlaceholdersRepository } from './placeholders.repository';
import { PlaceholdersService } from './placeholders.service';

/** Placeholders (issue 39); their bookings are the ledger's (`/v2/allocations`). */
@Module({
  imports: [LedgerModule],
  controllers: [PlaceholdersController],
  providers: [PlaceholdersService, PlaceholdersRepository],
  exports: [PlaceholdersService, PlaceholdersRepository],
})
export class PlaceholdersModule {}
