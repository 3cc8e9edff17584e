import { BusinessRuleError } from '../errors/main-api.errors';
import { isCalendarDate } from '@platform/contracts';
import { RequestValidationError } from '@platform/runtime';
import type { EstimateItemDto, UpdateProjectDto } from './dto/project-write.dto';
import type { Project } from './project.entity';

/** The estimate lines a project's estimated_time follows, or none when it is estimated by hand. */
export type EstimateMode = 'positions' | 'categories' | null;

/** Copies the fields sent onto the project; `ratecard_id` wins over `user_positions_header_id`. */
export function applyProjectFields(project: Project, body: UpdateProjectDto): void {
  const ratecardId = body.ratecard_id ?? body.user_positions_header_id;
  Object.assign(project, {
    ...(body.name !== undefined && { name: body.name }),
    ...(body.client_id !== undefined && { clientId: body.client_id }),
    ...(body.brief !== undefined && { brief: body.brief }),
    ...(body.pm_id !== undefined && { pmId: body.pm_id }),
    ...(body.brand_id !== undefined && { brandId: body.brand_id }),
    ...(body.product_id !== undefined && { productId: body.product_id }),
    ...(body.template_id !== undefined && { templateId: body.template_id }),
    ...(body.health !== undefined && { health: body.health }),
    ...(body.status !== undefined && { status: body.status }),
    ...(body.start !== undefined && { start: body.start }),
    ...(body.end !== undefined && { end: body.end }),
    ...(body.archived !== undefined && { archived: body.archived }),
    ...(body.billable !== undefined && { billable: body.billable }),
    ...(body.labels !== undefined && { labels: body.labels }),
    ...(body.estimated_time !== undefined && { estimatedTime: String(body.estimated_time) }),
    ...(body.estimated_by_position !== undefined && { estimatedByPosition: body.estimated_by_position }),
    ...(body.estimation_by_categories !== undefined && {
      estimationByCategories: body.estimation_by_categories,
    }),
    ...(body.estimated_by_hourly_rates !== undefined && {
      estimatedByHourlyRates: body.estimated_by_hourly_rates,
    }),
    ...(ratecardId !== undefined && { userPositionsHeaderId: ratecardId }),
    ...(body.income_type !== undefined && { incomeType: body.income_type }),
    ...(body.fee_id !== undefined && { feeId: body.fee_id }),
    ...(body.contract_id !== undefined && { contractId: body.contract_id }),
    ...(body.estimated !== undefined && { estimated: String(body.estimated) }),
    ...(body.exchange !== undefined && { exchange: String(body.exchange) }),
    ...(body.currency_change_amount !== undefined && {
      currencyChangeAmount: String(body.currency_change_amount),
    }),
  });
}

/** The field a client error about the ratecard names: the one the caller sent. */
export function ratecardField(body: UpdateProjectDto): 'ratecard_id' | 'user_positions_header_id' {
  return body.ratecard_id !== undefined ? 'ratecard_id' : 'user_positions_header_id';
}

/** 400 naming the field: a date that is not on the calendar, or an end before the start. */
export function checkProjectDates(project: Project): void {
  for (const field of ['start', 'end'] as const) {
    const value = project[field];
    if (value !== null && value !== undefined && !isCalendarDate(value)) {
      throw new RequestValidationError([
        { field, validation: 'isDate', message: `${field} must be a real calendar date` },
      ]);
    }
  }
  if (project.start && project.end && project.start > project.end) {
    throw new RequestValidationError([
      { field: 'end', validation: 'notBeforeStart', message: 'end must not be before start' },
    ]);
  }
}

/** 422 AC004: one estimation mode at most, and each income type with what its income is computed from. */
export function checkEstimationAndIncome(project: Project): void {
  if (project.estimatedByPosition && project.estimationByCategories) {
    throw new BusinessRuleError(
      'Only one time-estimation mode can be active: estimated_by_position or estimation_by_categories',
    );
  }
  switch (project.incomeType) {
    case 'fee':
      if (!project.feeId) {
        throw new BusinessRuleError('income_type fee needs fee_id');
      }
      break;
    case 'contract':
      if (!project.contractId) {
        throw new BusinessRuleError('income_type contract needs contract_id');
      }
      break;
    case 'one_time':
      if (project.estimated === null || project.estimated === undefined) {
        throw new BusinessRuleError('income_type one_time needs estimated (the fixed monetary value)');
      }
      break;
    case 'hourly_rate':
      if (!project.userPositionsHeaderId) {
        throw new BusinessRuleError('income_type hourly_rate needs a ratecard (ratecard_id)');
      }
      break;
    case null:
    case undefined:
      break;
  }
}

/** Whose sum the project's estimated_time follows; position wins, though both at once never pass the rules. */
export function estimateMode(project: Project): EstimateMode {
  return project.estimatedByPosition ? 'positions' : project.estimationByCategories ? 'categories' : null;
}

/** 400: an estimate list names each position or category at most once, as one upsert cannot take it twice. */
export function checkUniqueLines(items: EstimateItemDto[], field: 'users_positions' | 'categories'): void {
  const ids = items.map((item) => item.id);
  if (new Set(ids).size !== ids.length) {
    throw new RequestValidationError([{ field, validation: 'unique', message: 'each id at most once' }]);
  }
}

/** An ILIKE pattern matching names that contain the text literally (its wildcards escaped). */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (match) => `\\${match}`)}%`;
}
