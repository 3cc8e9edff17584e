import { Controller, Get, Param, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import { CallerAuthorization, Permission, RequirePermission } from '@platform/auth';
import { ParseIdPipe } from '@platform/runtime';
import { MainApiErrorBodyDto } from '../errors/main-api-error-body.dto';
import { ProjectForecastQueryDto } from './dto/forecast-query.dto';
import { ProjectForecastDto } from './dto/project-forecast.dto';
import { FORECAST_FORMULAS, FORECAST_FORBIDDEN, PLANNER_UNAVAILABLE } from './forecast-docs';
import { ForecastsService } from './forecasts.service';

@ApiTags('projects')
@Controller('projects')
export class ProjectForecastController {
  constructor(private readonly forecasts: ForecastsService) {}

  @Get(':project_id/forecast')
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({
    summary: "A project's forecast: approved time plus the planner's plan, against its estimate and budget",
    description:
      `${FORECAST_FORMULAS} Periods cover from..to only; totals, by_position and by_category cover all ` +
      'time. by_position has one row per position estimate line (also without work) and per position ' +
      'worked or planned in (null: hours without a position); by_category the same per category.',
  })
  @ApiOkResponse({ type: ProjectForecastDto })
  @ApiBadRequestResponse({
    type: MainApiErrorBodyDto,
    description: 'AC002: from or to not a calendar day, from after to, or more than 520 periods (named)',
  })
  @ApiForbiddenResponse({ type: MainApiErrorBodyDto, description: FORECAST_FORBIDDEN })
  @ApiNotFoundResponse({
    type: MainApiErrorBodyDto,
    description:
      "AC003: no such project in your company (another company's ids and deleted ones answer the same)",
  })
  @ApiServiceUnavailableResponse({ type: MainApiErrorBodyDto, description: PLANNER_UNAVAILABLE })
  forecast(
    @Param('project_id', ParseIdPipe) projectId: number,
    @Query() query: ProjectForecastQueryDto,
    @CallerAuthorization() authorization: string,
  ): Promise<ProjectForecastDto> {
    return this.forecasts.projectForecast(projectId, query, authorization);
  }
}
