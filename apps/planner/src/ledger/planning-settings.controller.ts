import { Body, Controller, Get, Headers, Put, Req } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiPreconditionFailedResponse,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import { Permission, RequirePermission } from '@platform/auth';
import { ConditionalRead, recordRowVersion } from '@platform/runtime';
import type { FastifyRequest } from 'fastify';
import { PlannerErrorBodyDto } from '../errors/planner-error-body.dto';
import { PlanningSettingsBodyDto, PlanningSettingsDto } from './dto/planning-settings.dto';
import { PlanningSettingsService } from './planning-settings.service';

@ApiTags('allocations v2')
@ApiBearerAuth()
@Controller('v2/planning-settings')
export class PlanningSettingsController {
  constructor(private readonly settings: PlanningSettingsService) {}

  @Get()
  @RequirePermission(Permission.ReadCompanyData)
  @ConditionalRead()
  @ApiOperation({ summary: "The company's capacity policy; its ETag names its version" })
  @ApiOkResponse({ type: PlanningSettingsDto })
  get(): Promise<PlanningSettingsDto> {
    return this.settings.get();
  }

  @Put()
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOperation({ summary: "Set the company's capacity policy (roles 1-2; If-Match required)" })
  @ApiHeader({
    name: 'If-Match',
    required: true,
    description: 'The ETag of the settings this change is based on',
  })
  @ApiOkResponse({ type: PlanningSettingsDto })
  @ApiPreconditionFailedResponse({
    type: PlannerErrorBodyDto,
    description: 'The settings changed since (current: them now)',
  })
  @ApiResponse({
    status: 428,
    type: PlannerErrorBodyDto,
    description: 'PreconditionRequiredError: no If-Match',
  })
  async replace(
    @Body() body: PlanningSettingsBodyDto,
    @Headers('if-match') ifMatch: string | undefined,
    @Req() request: FastifyRequest,
  ): Promise<PlanningSettingsDto> {
    const settings = await this.settings.replace(body, ifMatch);
    recordRowVersion(request, settings.version);
    return settings;
  }
}
