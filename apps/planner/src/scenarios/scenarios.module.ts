import { Module } from '@nestjs/common';
import { AvailabilityModule } from '../availability/availability.module';
import { LedgerModule } from '../ledger/ledger.module';
import { PlaceholdersModule } from '../placeholders/placeholders.module';
import { ScenariosController } from './scenarios.controller';
import { ScenariosService } from './scenarios.service';

/** Scenarios' own routes (issue 39); entering one is ScenarioPlanModule's, for every v2 route. */
@Module({
  imports: [LedgerModule, PlaceholdersModule, AvailabilityModule],
  controllers: [ScenariosController],
  providers: [ScenariosService],
})
export class ScenariosModule {}
