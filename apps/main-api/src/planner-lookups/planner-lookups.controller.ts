import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Permission, RequirePermission } from '@platform/auth';
import { PlannerLookupsDto, PlannerLookupsQueryDto } from './dto/planner-lookups.dto';
import { PlannerLookupsService } from './planner-lookups.service';

@ApiTags('planner look-ups')
@Controller('planner')
export class PlannerLookupsController {
  constructor(private readonly plannerLookups: PlannerLookupsService) {}

  @Get('lookups')
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({
    summary:
      'Users, projects, working weeks, leaves and labels by id, in one call (the planner’s batch look-up)',
    description:
      'Each part answers as the endpoint that serves it alone: `GET /users?ids=`, the projects the caller ' +
      'may read (id, name, client), `GET /working-time/company/with/users`, `GET /user/leaves` for ' +
      '[from, to], the user labels those users carry (and those asked by id), and positions and categories ' +
      'by id. Ids of another company are simply absent.',
  })
  @ApiOkResponse({ type: PlannerLookupsDto })
  lookups(@Query() query: PlannerLookupsQueryDto): Promise<PlannerLookupsDto> {
    return this.plannerLookups.lookups(query);
  }
}
