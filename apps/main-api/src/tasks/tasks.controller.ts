import { Task } from './task.entity';
import { Body, Controller, Delete, Get, Param, Post, Put, Query, type PipeTransform } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { Permission, RequirePermission } from '@platform/auth';
import { ListQueryDto, type ListAnswer, ApiPaginatedResponse, ApiFiltersExample } from '@platform/contracts';
import { ParseIdPipe, ConditionalRead, ConditionalResource } from '@platform/runtime';
import { MainApiErrorBodyDto } from '../errors/main-api-error-body.dto';
import { AttachmentDto, CreateAttachmentDto, CreateTaskDto, TaskDto, UpdateTaskDto } from './dto/task.dto';
import { ATTACHMENT_SOURCES, type AttachmentSource } from './task-attachment.entity';
import { InvalidAttachmentSourceError } from './tasks.errors';
import { TasksService } from './tasks.service';
import { Idempotent } from '../idempotency/idempotent.decorator';

/** Checked before the body, so a wrong store always answers AC001. */
class AttachmentSourcePipe implements PipeTransform<string, AttachmentSource> {
  transform(value: string): AttachmentSource {
    if (!(ATTACHMENT_SOURCES as readonly string[]).includes(value)) {
      throw new InvalidAttachmentSourceError();
    }
    return value as AttachmentSource;
  }
}

@ApiTags('tasks')
@Controller('tasks')
export class TasksController {
  constructor(private readonly tasks: TasksService) {}

  @Post()
  @Idempotent()
  @ApiOperation({ summary: 'Create a task in a project' })
  @RequirePermission(Permission.ManageDelivery)
  @ApiCreatedResponse({ type: TaskDto })
  async create(@Body() body: CreateTaskDto): Promise<TaskDto> {
    return TaskDto.from(await this.tasks.create(body));
  }

  @Get()
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOperation({
    summary: 'List tasks; filters: project_id, status, assignee_id, name (contains); sort: name',
  })
  @ApiFiltersExample({ status: ['nueva', 'en_proceso'] })
  @ApiPaginatedResponse(TaskDto)
  list(@Query() query: ListQueryDto): Promise<ListAnswer<TaskDto>> {
    return this.tasks.list(query);
  }

  @Get(':task_id')
  @ConditionalRead()
  @ApiOperation({ summary: 'One task by id' })
  @RequirePermission(Permission.ReadCompanyData)
  @ApiOkResponse({ type: TaskDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async get(@Param('task_id', ParseIdPipe) id: number): Promise<TaskDto> {
    return TaskDto.from(await this.tasks.get(id));
  }

  @Put(':task_id')
  @ConditionalResource(Task, { param: 'task_id' })
  @RequirePermission(Permission.ManageDelivery)
  @ApiOperation({ summary: 'Update a task (status nueva, en_proceso, estancada or finalizada)' })
  @ApiOkResponse({ type: TaskDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async update(@Param('task_id', ParseIdPipe) id: number, @Body() body: UpdateTaskDto): Promise<TaskDto> {
    return TaskDto.from(await this.tasks.update(id, body));
  }

  @Delete(':task_id')
  @ConditionalResource(Task, { param: 'task_id' })
  @RequirePermission(Permission.ManageDelivery)
  @ApiOperation({ summary: 'Delete a task (soft delete; answers the deleted task)' })
  @ApiOkResponse({ type: TaskDto })
  @ApiNotFoundResponse({ type: MainApiErrorBodyDto })
  async remove(@Param('task_id', ParseIdPipe) id: number): Promise<TaskDto> {
    return TaskDto.from(await this.tasks.remove(id));
  }

  @Post(':task_id/attachments/source/:source_type')
  @Idempotent()
  @RequirePermission(Permission.ManageDelivery)
  @ApiOperation({
    summary: 'Attach a file kept in an external store',
    description:
      "main-api keeps the file's link or the store's reference to it, never the file: the answer's `url` " +
      'opens it in its store (see AttachmentDto.url).',
  })
  @ApiParam({ name: 'source_type', enum: ATTACHMENT_SOURCES })
  @ApiCreatedResponse({ type: AttachmentDto })
  @ApiBadRequestResponse({
    type: MainApiErrorBodyDto,
    description:
      "AC001: unknown source_type; AC002: invalid body, or a filename that is neither a link nor the store's reference",
  })
  async attach(
    @Param('source_type', AttachmentSourcePipe) sourceType: AttachmentSource,
    @Param('task_id', ParseIdPipe) id: number,
    @Body() body: CreateAttachmentDto,
  ): Promise<AttachmentDto> {
    return AttachmentDto.from(await this.tasks.attach(id, sourceType, body));
  }
}
