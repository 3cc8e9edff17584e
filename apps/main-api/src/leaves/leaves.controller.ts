import { Body, Controller, Get, Post, Query } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { Permission, RequirePermission } from '@platform/auth';
import { MainApiErrorBodyDto } from '../errors/main-api-error-body.dto';
import { CreateUserLeaveDto, UserLeaveDto, UserLeavesQueryDto } from './dto/user-leave.dto';
import { LeavesService } from './leaves.service';
import { Idempotent } from '../idempotency/idempotent.decorator';

@ApiTags('leaves')
@Controller('user/leaves')
export class LeavesController {
  constructor(private readonly leaves: LeavesService) {}

  @Post()
  @Idempotent()
  @RequirePermission(Permission.CreateLeaves)
  @ApiOperation({
    summary: 'Create a leave (roles 4-5 only their own); overlapping leaves are refused',
    description:
      'The leave is approved, unless the company requires approval (GET /v1/leave-policy) and a person ' +
      '(roles 4-5) writes their own: then it is requested until a manager approves it (/v1/leaves/{id}/approve).',
  })
  @ApiCreatedResponse({ type: UserLeaveDto })
  @ApiUnprocessableEntityResponse({
    type: MainApiErrorBodyDto,
    description: 'AC004: overlaps another leave of the user',
  })
  async create(@Body() body: CreateUserLeaveDto): Promise<UserLeaveDto> {
    return UserLeaveDto.from(await this.leaves.create(body));
  }

  @Get()
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({
    summary: 'Approved leaves of some users touching a period (dates included)',
    description:
      'Only approved leaves, the ones that count for capacity: requested, rejected and cancelled leaves are in ' +
      'GET /v1/leaves. Every leave was approved before leaves had a status, so the answer is the same for them.',
  })
  @ApiOkResponse({ type: [UserLeaveDto] })
  list(@Query() query: UserLeavesQueryDto): Promise<UserLeaveDto[]> {
    return this.leaves.list(query);
  }
}
