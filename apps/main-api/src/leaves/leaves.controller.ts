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
  @ApiOperation({ summary: 'Create a leave (roles 4-5 only their own); overlapping leaves are refused' })
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
  @ApiOperation({ summary: 'Leaves of some users touching a period (dates included)' })
  @ApiOkResponse({ type: [UserLeaveDto] })
  list(@Query() query: UserLeavesQueryDto): Promise<UserLeaveDto[]> {
    return this.leaves.list(query);
  }
}
