import { Module } from '@nestjs/common';
import { TimeReportRepository } from './time-report.repository';
import { TimeReportsController } from './time-reports.controller';
import { TimeReportsService } from './time-reports.service';

/** The time report (issue 40); the plan comes from the global PlannerClient. */
@Module({
  controllers: [TimeReportsController],
  providers: [TimeReportRepository, TimeReportsService],
})
export class TimeReportModule {}
