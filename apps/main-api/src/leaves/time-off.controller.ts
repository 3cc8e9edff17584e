import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { Permission, RequirePermission } from '@platform/auth';
import { ApiFiltersExample, ApiPaginatedResponse, type ListAnswer } from '@platform/contracts';
import { ConditionalRead, ConditionalResource, ParseIdPipe } from '@platform/runtime';
import { MainApiErrorBodyDto } from '../errors/main-api-error-body.dto';
import { Idempotent } from '../idempotency/idempotent.decorator';
import { CreateLeaveDto, LeaveDto, LeavesListQueryDto, RejectLeaveDto } from './dto/leave.dto';
import { TimeOffService } from './time-off.service';
import { UserLeave } from './user-leave.entity';

const NOT_REQUESTED = {
  type: MainApiErrorBodyDto,
  description: 'LeaveNotRequested (AC004): the leave is not requested (already decided or cancelled)',
};

/** Time off with a status (issue 38): requests, approvals, rejections and cancellations. */
@ApiTags('leaves')
@Controller('leaves')
export class TimeOffController {
  constructor(private readonly timeOff: TimeOffService) {}

  @Post()
  @Idempotent()
  @RequirePermission(Permission.CreateLeaves)
  @ApiOperation({
    summary: 'Request or write a leave (roles 4-5: their own, always requested)',
    description:
      'Roles 1-3 write anyone’s, approved unless status is requested. start and end are instants, local ' +
      "date-times read in the person's time zone, or (all_day) UTC dates. A leave may not overlap another " +
      'requested or approved leave of the person (422 AC004).',
  })
  @ApiCreatedResponse({ type: LeaveDto })
  @ApiForbiddenResponse({ type: MainApiErrorBodyDto, description: "Roles 4-5: someone else's, or approved" })
  @ApiUnprocessableEntityResponse({
    type: MainApiErrorBodyDto,
    description: 'AC004: overlaps another requested or approved leave of the person',
  })
  async create(@Body() body: CreateLeaveDto): Promise<LeaveDto> {
    return LeaveDto.from(await this.timeOff.create(body));
  }

  @Get()
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({
    summary:
      'List leaves of every status; user_ids, from and to (days touched) and status narrow it; filters: user_id, ' +
      'leave_type_id, status, all_day, start, end; sort: start',
  })
  @ApiFiltersExample({ status: 'requested' })
  @ApiPaginatedResponse(LeaveDto)
  list(@Query() query: LeavesListQueryDto): Promise<ListAnswer<LeaveDto>> {
    return this.timeOff.list(query);
  }

  @Get(':id')
  @ConditionalRead()
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({ summary: 'One leave' })
  @ApiOkResponse({ type: LeaveDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async get(@Param('id', ParseIdPipe) id: number): Promise<LeaveDto> {
    return LeaveDto.from(await this.timeOff.get(id));
  }

  @Post(':id/approve')
  @Idempotent()
  @HttpCode(200)
  @ConditionalResource(UserLeave)
  @RequirePermission(Permission.DecideLeaves)
  @ApiOperation({ summary: 'Approve a requested leave (roles 1-3): it counts for capacity from now on' })
  @ApiOkResponse({ type: LeaveDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  @ApiConflictResponse(NOT_REQUESTED)
  async approve(@Param('id', ParseIdPipe) id: number): Promise<LeaveDto> {
    return LeaveDto.from(await this.timeOff.approve(id));
  }

  @Post(':id/reject')
  @Idempotent()
  @HttpCode(200)
  @ConditionalResource(UserLeave)
  @RequirePermission(Permission.DecideLeaves)
  @ApiOperation({ summary: 'Reject a requested leave (roles 1-3): its days are free again' })
  @ApiOkResponse({ type: LeaveDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  @ApiConflictResponse(NOT_REQUESTED)
  async reject(@Param('id', ParseIdPipe) id: number, @Body() body: RejectLeaveDto): Promise<LeaveDto> {
    return LeaveDto.from(await this.timeOff.reject(id, body));
  }

  @Post(':id/cancel')
  @Idempotent()
  @HttpCode(200)
  @ConditionalResource(UserLeave)
  @RequirePermission(Permission.CreateLeaves)
  @ApiOperation({
    summary:
      'Cancel a requested or approved leave (the person themself, or roles 1-3): its days are free again',
  })
  @ApiOkResponse({ type: LeaveDto })
  @ApiForbiddenResponse({ type: MainApiErrorBodyDto, description: "Roles 4-5: someone else's leave" })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  @ApiConflictResponse({
    type: MainApiErrorBodyDto,
    description: 'LeaveNotOpen (AC004): the leave is already rejected or cancelled',
  })
  async cancel(@Param('id', ParseIdPipe) id: number): Promise<LeaveDto> {
    return LeaveDto.from(await this.timeOff.cancel(id));
  }
}
