import { Body, Controller, Delete, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Permission, RequirePermission } from '@platform/auth';
import { IntegrationEntity } from '@platform/contracts';
import { Caller, type CallerContext } from '@platform/main-api-client';
import { WorkingTimeEntryResponseDto } from '../dto/working-time.response.dto';
import { CreateWorkingTimeBody } from '../dto/entity-bodies.dto';
import { ExternalIdParamsDto } from '../dto/external-id-params.dto';
import { ExternalDeleteDto, SourceQueryDto } from '../dto/integration-common.dto';
import { IntegrationWritesService } from '../integration-writes.service';
import { DuplicateExternalId, ExternalIdNotFound, sourceOfDelete, UnknownReference } from './entity-routes';

const DELETED = 'The emptied week: no days';

/** `/v2/integrations/working-time`: the operations interfaces.md lists for working weeks, by external id. */
@ApiTags('integrations: working-time')
@RequirePermission(Permission.UseIntegrations)
@Controller(IntegrationEntity.WorkingTime)
export class WorkingTimeController {
  constructor(private readonly writes: IntegrationWritesService) {}

  @Post()
  @ApiOperation({ summary: "Set a user's working week (user_id: external id); delete empties it" })
  @ApiCreatedResponse({ type: [WorkingTimeEntryResponseDto], description: 'The working week' })
  @UnknownReference('user_id')
  @DuplicateExternalId()
  create(
    @Body() body: CreateWorkingTimeBody,
    @Caller() caller: CallerContext,
  ): Promise<WorkingTimeEntryResponseDto[]> {
    return this.writes.create(IntegrationEntity.WorkingTime, body, caller);
  }

  @Delete(':external_id')
  @ApiOperation({ summary: 'Delete a working week by external id, then its mapping' })
  @ApiBody({ type: ExternalDeleteDto, required: false })
  @ApiOkResponse({ type: [WorkingTimeEntryResponseDto], description: DELETED })
  @ExternalIdNotFound()
  remove(
    @Param() params: ExternalIdParamsDto,
    @Body() body: ExternalDeleteDto,
    @Query() query: SourceQueryDto,
    @Caller() caller: CallerContext,
  ): Promise<WorkingTimeEntryResponseDto[]> {
    return this.writes.remove(
      IntegrationEntity.WorkingTime,
      params.external_id,
      sourceOfDelete(body, query),
      caller,
    );
  }
}
