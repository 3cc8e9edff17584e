import { Controller, Get, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiForbiddenResponse,
  ApiOkResponse,
  ApiOperation,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import { CallerAuthorization, Permission, RequirePermission } from '@platform/auth';
import { ApiFiltersExample } from '@platform/contracts';
import { MainApiErrorBodyDto } from '../errors/main-api-error-body.dto';
import { ForecastReportQueryDto } from './dto/forecast-query.dto';
import { ForecastReportDto } from './dto/forecast-report.dto';
import { FORECAST_FORMULAS, FORECAST_FORBIDDEN, PLANNER_UNAVAILABLE } from './forecast-docs';
import { ForecastsService } from './forecasts.service';

@ApiTags('reports')
@Controller('reports')
export class ForecastReportsController {
  constructor(private readonly forecasts: ForecastsService) {}

  @Get('forecast')
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({
    summary: 'Forecasts summed by client, project or project manager, a cursor page of groups',
    description:
      "Each group sums the forecasts of its projects (the company's projects that are not deleted, " +
      'narrowed by filters), each computed as GET /v1/projects/{project_id}/forecast computes it with the ' +
      "same from, to, granularity and include_tentative: every additive figure is the sum of the projects', " +
      "burn_ratio is recomputed from the sums, budget_exhausted_on is the earliest of the projects'. " +
      `Groups by key (client_id, project_id or pm_id; the projects without a manager last). ${FORECAST_FORMULAS}`,
  })
  @ApiFiltersExample({ archived: false })
  @ApiOkResponse({ type: ForecastReportDto })
  @ApiBadRequestResponse({
    type: MainApiErrorBodyDto,
    description:
      'AC002: a bad group_by, granularity, from, to (more than 520 periods), filters, cursor or limit (named)',
  })
  @ApiForbiddenResponse({ type: MainApiErrorBodyDto, description: FORECAST_FORBIDDEN })
  @ApiServiceUnavailableResponse({ type: MainApiErrorBodyDto, description: PLANNER_UNAVAILABLE })
  report(
    @Query() query: ForecastReportQueryDto,
    @CallerAuthorization() authorization: string,
  ): Promise<ForecastReportDto> {
    return this.forecasts.report(query, authorization);
  }
}
