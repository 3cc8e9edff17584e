import { Injectable } from '@nestjs/common';
import { isCalendarDate, type ListQueryDto, type ListAnswer } from '@platform/contracts';
import { RequestValidationError } from '@platform/runtime';
import { ResourceNotFoundError } from '../errors/main-api.errors';
import { FeeDto, type CreateFeeDto, type UpdateFeeDto } from './dto/fee.dto';
import type { Fee } from './fee.entity';
import { FeesRepository } from './fees.repository';

/** Fees of one client: the client must be of the caller's company, else 404 like any unknown client. */
@Injectable()
export class FeesService {
  constructor(private readonly fees: FeesRepository) {}

  async create(clientId: number, body: CreateFeeDto): Promise<Fee> {
    await this.requireClient(clientId);
    assertPeriod(body.start, body.end);
    return this.fees.create({
      clientId,
      name: body.name,
      estimate: String(body.estimate ?? 0),
      workOrder: body.work_order ?? '',
      description: body.description ?? '',
      frequency: body.frequency ?? 1,
      // docs/spec/interfaces.md: a new fee is always answered as active.
      status: 'active',
      estimatedTime: String(body.estimated_time ?? 0),
      start: body.start ?? null,
      end: body.end ?? null,
      currencyId: body.currency_id ?? 1,
    });
  }

  async list(clientId: number, query: ListQueryDto): Promise<ListAnswer<FeeDto>> {
    await this.requireClient(clientId);
    return this.fees.listOfClient(clientId, query, (fee) => FeeDto.from(fee));
  }

  get(clientId: number, id: number): Promise<Fee> {
    return this.fees.getOfClient(clientId, id);
  }

  async update(clientId: number, id: number, body: UpdateFeeDto): Promise<Fee> {
    const fee = await this.get(clientId, id);
    assertPeriod(body.start ?? fee.start ?? undefined, body.end ?? fee.end ?? undefined);
    Object.assign(fee, {
      ...(body.name !== undefined && { name: body.name }),
      ...(body.estimate !== undefined && { estimate: String(body.estimate) }),
      ...(body.work_order !== undefined && { workOrder: body.work_order }),
      ...(body.description !== undefined && { description: body.description }),
      ...(body.frequency !== undefined && { frequency: body.frequency }),
      ...(body.status !== undefined && { status: body.status }),
      ...(body.estimated_time !== undefined && { estimatedTime: String(body.estimated_time) }),
      ...(body.start !== undefined && { start: body.start }),
      ...(body.end !== undefined && { end: body.end }),
      ...(body.currency_id !== undefined && { currencyId: body.currency_id }),
    });
    return this.fees.save(fee);
  }

  private async requireClient(clientId: number): Promise<void> {
    if (!(await this.fees.hasClient(clientId))) {
      throw new ResourceNotFoundError(`Client ${clientId}`);
    }
  }
}

function assertPeriod(start: string | undefined, end: string | undefined): void {
  for (const [field, value] of [
    ['start', start],
    ['end', end],
  ] as const) {
    if (value !== undefined && !isCalendarDate(value)) {
      throw new RequestValidationError([
        { field, validation: 'isDate', message: `${field} must be a real calendar date` },
      ]);
    }
  }
  if (start !== undefined && end !== undefined && start > end) {
    throw new RequestValidationError([
      { field: 'end', validation: 'notBeforeStart', message: 'end must not be before start' },
    ]);
  }
}
