import { Controller, Get, Res, ServiceUnavailableException } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import { HealthCheckService, TypeOrmHealthIndicator, type HealthCheckResult } from '@nestjs/terminus';
import type { FastifyReply } from 'fastify';
import { Public } from '@platform/auth';
import { DependencyStatusDto, HealthReportDto, LivenessDto } from './health-report.dto';

const CHECK_TIMEOUT_MS = 2000;

@ApiTags('health')
@ApiExtraModels(DependencyStatusDto)
@Public()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
  ) {}

  @Get('live')
  @ApiOperation({ summary: 'Liveness: the process is up and its event loop answers. Checks nothing else.' })
  @ApiOkResponse({ type: LivenessDto, description: 'Alive' })
  live(): LivenessDto {
    return { status: 'ok' };
  }

  @Get('ready')
  @ApiOperation({
    summary:
      "Readiness: the service's own database answers within 2 s. Services it calls are not checked: while one is down, the routes that need it answer 503.",
  })
  @ApiOkResponse({ type: HealthReportDto, description: 'Ready to serve traffic' })
  @ApiServiceUnavailableResponse({
    type: HealthReportDto,
    description: 'A dependency is down; the body says which',
  })
  async ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<HealthCheckResult> {
    try {
      return await this.health.check([
        () => this.database.pingCheck('database').withTimeout(CHECK_TIMEOUT_MS),
      ]);
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
