import { Module } from '@nestjs/common';
import { ForecastInputReader } from './forecast-inputs';
import { ForecastReportsController } from './forecast-reports.controller';
import { ForecastRepository } from './forecast.repository';
import { ForecastsService } from './forecasts.service';
import { ProjectForecastController } from './project-forecast.controller';

/** Project forecasts and the forecast report (issue 40); the plan comes from the global PlannerClient. */
@Module({
  controllers: [ProjectForecastController, ForecastReportsController],
  providers: [ForecastRepository, ForecastInputReader, ForecastsService],
})
export class ForecastModule {}
