import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiBody,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import { Permission, RequirePermission } from '@platform/auth';
import { Caller, type CallerContext } from '@platform/main-api-client';
import { ParseIdPipe } from '@platform/runtime';
import { PlannerErrorBodyDto } from '../errors/planner-error-body.dto';
import { AllocationsService } from './allocations.service';
import { AllocationDto, UpdateAllocationDto } from './dto/allocation.dto';
import { ProjectAllocationsDto } from './dto/project-allocations.dto';

const WRITE_ERRORS =
  'InvalidAllocationError (bad field, from not before to, more than 12 months, typeId not Project), ' +
  'UserNotFoundError, ProjectNotFoundError, UserNotHaveWorkDaysError (no working day in the range), ' +
  'AllocationAlreadyExistInDatesRangeError (the user already has an allocation on the project sharing a day)';

@ApiTags('allocations')
@ApiBearerAuth()
@ApiForbiddenResponse({ type: PlannerErrorBodyDto, description: 'Forbidden: your role may not do this' })
@ApiServiceUnavailableResponse({
  type: PlannerErrorBodyDto,
  description: 'MainApiUnavailableError: main-api did not answer in time; retry later',
})
@Controller('allocation')
export class AllocationsController {
  constructor(private readonly allocations: AllocationsService) {}

  @Post('saveAllocation')
  @HttpCode(200)
  @RequirePermission(Permission.ManageDelivery)
  @ApiOperation({
    summary: 'Allocate a user to a project for a date range and a number of hours',
    description: `Roles 1-3. Checked in this order: the body, the user and project, work days, overlap. Errors: ${WRITE_ERRORS}.`,
  })
  @ApiOkResponse({ description: 'Saved; no body' })
  @ApiBadRequestResponse({ type: PlannerErrorBodyDto, description: WRITE_ERRORS })
  async save(@Body() body: AllocationDto, @Caller() caller: CallerContext): Promise<void> {
    await this.allocations.save(body, caller);
  }

  @Put('updateAllocation')
  @RequirePermission(Permission.ManageDelivery)
  @ApiOperation({
    summary: 'Change an allocation, found by oldAllocation, into newAllocation (possibly on another project)',
    description:
      'Roles 1-3. The stored allocation is the one with the user, project, from and to of oldAllocation; ' +
      'it keeps its primaryKey. newAllocation follows the rules of save; the allocation being replaced ' +
      `never overlaps itself. Errors: AllocationNotFoundError, ${WRITE_ERRORS}.`,
  })
  @ApiOkResponse({ description: 'Updated; no body' })
  @ApiBadRequestResponse({
    type: PlannerErrorBodyDto,
    description: `AllocationNotFoundError, ${WRITE_ERRORS}`,
  })
  async update(@Body() body: UpdateAllocationDto, @Caller() caller: CallerContext): Promise<void> {
    await this.allocations.update(body, caller);
  }

  @Delete('removeAllocation')
  @RequirePermission(Permission.ManageDelivery)
  @ApiOperation({
    summary: 'Remove the allocation with the user, project, from and to of the body',
    description: 'Roles 1-3. Every field is required (email excepted); allocatedHours is not compared.',
  })
  @ApiBody({ type: AllocationDto })
  @ApiOkResponse({ description: 'Removed; no body' })
  @ApiBadRequestResponse({
    type: PlannerErrorBodyDto,
    description: 'InvalidAllocationError, ProjectNotFoundError, AllocationNotFoundError',
  })
  async remove(@Body() body: AllocationDto, @Caller() caller: CallerContext): Promise<void> {
    await this.allocations.remove(body, caller);
  }

  @Get('getAllocations/:projectId')
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({
    summary:
      "The project's allocated users with their allocations, capacity, availability and other projects",
    description:
      'Roles 1-5. For each allocation: capacity = Σ over its days (both ends included) of the daily_hours ' +
      "of that day of week in the user's working time, minus leaves (an all-day leave removes the day, a " +
      'partial one its hours inside start_at-end_at, at most the day); allocationUserAnotherProjects = the ' +
      "user's allocations on other projects sharing a day with it, each counted as hours × (its working " +
      'days inside this range) ÷ (all its working days), summed per project; availabilityLeft = capacity − ' +
      'allocatedHours − Σ those prorated hours (negative when over-allocated). Dates are calendar days, ' +
      'never shifted by time zones. A project without allocations answers {users: []}.',
  })
  @ApiParam({ name: 'projectId', type: Number, example: 7 })
  @ApiOkResponse({ type: ProjectAllocationsDto })
  @ApiBadRequestResponse({
    type: PlannerErrorBodyDto,
    description: 'InvalidAllocationError: projectId is not an id',
  })
  @ApiNotFoundResponse({
    type: PlannerErrorBodyDto,
    description: 'ProjectNotFoundError: no such project in your company',
  })
  projectAllocations(
    @Param('projectId', ParseIdPipe) projectId: number,
    @Caller() caller: CallerContext,
  ): Promise<ProjectAllocationsDto> {
    return this.allocations.projectAllocations(projectId, caller);
  }
}
