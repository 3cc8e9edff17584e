import { Controller, Get, Inject, Optional, Res, ServiceUnavailableException } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import {
  HealthCheckService,
  HealthIndicatorService,
  TypeOrmHealthIndicator,
  type HealthCheckResult,
  type HealthIndicatorFunction,
} from '@nestjs/terminus';
import type { FastifyReply } from 'fastify';
import { Public } from '@platform/auth';
import { DependencyStatusDto, HealthReportDto, LivenessDto } from './health-report.dto';
import { READINESS_CHECKS, type ReadinessCheck } from './readiness-check';

const CHECK_TIMEOUT_MS = 2000;

@ApiTags('health')
@ApiExtraModels(DependencyStatusDto)
@Public()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly indicators: HealthIndicatorService,
    @Optional() @Inject(READINESS_CHECKS) private readonly dependencies: ReadinessCheck[] = [],
  ) {}

  @Get('live')
  @ApiOperation({ summary: 'Liveness: the process is up and its event loop answers. Checks nothing else.' })
  @ApiOkResponse({ type: LivenessDto, description: 'Alive' })
  live(): LivenessDto {
    return { status: 'ok' };
  }

  @Get('ready')
  @ApiOperation({
    summary: 'Readiness: the database (and main-api, where used) answer within 2 s.',
    description:
      "For operators and dashboards: planner and integrations also report whether main-api answers, so a main-api outage shows here as 503 naming `main-api`. Kubernetes' readinessProbe uses `/health/ready/self` instead.",
  })
  @ApiOkResponse({ type: HealthReportDto, description: 'Ready to serve traffic' })
  @ApiServiceUnavailableResponse({
    type: HealthReportDto,
    description: 'A dependency is down; the body says which',
  })
  ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<HealthCheckResult> {
    return this.report(reply, [
      this.databaseCheck(),
      ...this.dependencies.map(
        (dependency) => () =>
          this.indicators
            .check(dependency.name)
            .attempt(async ({ signal }) => {
              await dependency.check(signal);
            })
            .withTimeout(CHECK_TIMEOUT_MS),
      ),
    ]);
  }

  @Get('ready/self')
  @ApiOperation({
    summary: "Ready to serve, judged on the service's own dependencies: its database answers within 2 s.",
    description:
      "What Kubernetes' readinessProbe uses. Services this one calls (main-api, for planner and integrations) are not checked: a main-api outage must not take planner and integrations out of their Service's endpoints, or clients would get the ingress's error page instead of the designed 503 body (`MainApiUnavailableError`, integrations' 503), which the main-api client's breaker answers at once. main-api itself checks the same as `/health/ready`.",
  })
  @ApiOkResponse({ type: HealthReportDto, description: 'Ready to serve traffic' })
  @ApiServiceUnavailableResponse({
    type: HealthReportDto,
    description: 'The database is down',
  })
  readySelf(@Res({ passthrough: true }) reply: FastifyReply): Promise<HealthCheckResult> {
    return this.report(reply, [this.databaseCheck()]);
  }

  private databaseCheck(): HealthIndicatorFunction {
    return () => this.database.pingCheck('database').withTimeout(CHECK_TIMEOUT_MS);
  }

  private async report(reply: FastifyReply, checks: HealthIndicatorFunction[]): Promise<HealthCheckResult> {
    try {
      return await this.health.check(checks);
    } catch (error) {
      // Terminus reports "down" as an exception; answer its report as is (it is for probes and
      // operators, not a client error) instead of letting the service's error body replace it.
      if (error instanceof ServiceUnavailableException) {
        void reply.status(503);
        return error.getResponse() as HealthCheckResult;
      }
      throw error;
    }
  }
}
