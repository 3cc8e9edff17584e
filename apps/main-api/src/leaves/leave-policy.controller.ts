import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Permission, RequirePermission } from '@platform/auth';
import { LeavePolicyDto, UpdateLeavePolicyDto } from './dto/leave.dto';
import { LeavePolicyService } from './leave-policy.service';

@ApiTags('leaves')
@Controller('leave-policy')
export class LeavePolicyController {
  constructor(private readonly policy: LeavePolicyService) {}

  @Get()
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({ summary: "The company's leave policy: whether a person's own leave waits for approval" })
  @ApiOkResponse({ type: LeavePolicyDto })
  get(): Promise<LeavePolicyDto> {
    return this.policy.get();
  }

  @Put()
  @RequirePermission(Permission.ManageCompanySetup)
  @ApiOperation({
    summary: 'Set the leave policy (roles 1-2)',
    description:
      'approval_required: true makes a leave a person (roles 4-5) writes for themself through POST /user/leaves ' +
      'requested until a manager approves it (POST /v1/leaves/{id}/approve); requested leaves do not count for ' +
      'capacity. Leaves already written keep their status.',
  })
  @ApiOkResponse({ type: LeavePolicyDto })
  set(@Body() body: UpdateLeavePolicyDto): Promise<LeavePolicyDto> {
    return this.policy.set(body);
  }
}
