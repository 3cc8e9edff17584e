import { ApiProperty } from '@nestjs/swagger';
import { formatTimestamp, ROLE_IDS, API_TIMESTAMP, API_ROW_VERSION } from '@platform/contracts';
import { ProjectStatus } from '../project-status';
import type { Client } from '../../clients/client.entity';
import type { User } from '../../users/user.entity';
import type { ProjectFigures, ProjectSummaryFigures } from '../project-figures';
import type { ProjectDetailRow } from '../project-reads.repository';
import { INCOME_TYPES, type IncomeType, type ProjectColumns } from '../project.entity';

/** main-api's timestamp format (docs/spec/decisions.md §5). */
const TIMESTAMP = API_TIMESTAMP;
const HEALTH_VALUES = [1, 2, 3, 4];

/**
 * What the read shape shows of a project: its columns and some of its client's and manager's, from a
 * Project entity (lists) or a row of the detail.
 */
type ProjectShown = ProjectColumns & {
  client?: Pick<Client, 'id' | 'name' | 'archived'> | null;
  pm?: Pick<User, 'id' | 'firstName' | 'lastName' | 'email' | 'roleId'> | null;
};

class ProjectClientDto {
  @ApiProperty({ type: 'integer', example: 7 })
  id!: number;

  @ApiProperty({ example: 'Northwind' })
  name!: string;

  @ApiProperty({ type: 'integer', enum: [1, 2], example: 1, description: '1 active, 2 archived' })
  client_status_id!: number;
}

class ProjectPmDto {
  @ApiProperty({ type: 'integer', example: 12 })
  id!: number;

  @ApiProperty({ example: 'Ada' })
  first_name!: string;

  @ApiProperty({ example: 'Lovelace' })
  last_name!: string;

  @ApiProperty({ format: 'email', example: 'ada@agency.example' })
  email!: string;

  @ApiProperty({
    type: 'integer',
    enum: [...ROLE_IDS],
    example: 3,
    description: '1 C-Level, 2 Director, 3 Project Manager, 4 Collaborator, 5 Freelancer, 6 Client',
  })
  role_id!: number;
}

/** The name of a project position's position. */
export class ProjectPositionNameDto {
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'Art Director',
    description: 'null when the position has since been deleted',
  })
  name!: string | null;
}

class ProjectPositionDto {
  @ApiProperty({ type: 'integer', example: 31 })
  id!: number;

  @ApiProperty({ type: 'integer', example: 5, description: 'Unified position id' })
  user_positions_unified_id!: number;

  @ApiProperty({ type: 'integer', example: 88 })
  project_id!: number;

  @ApiProperty({ example: 40, description: 'Hours' })
  estimated_hours!: number;

  @ApiProperty({ example: 12.5, description: 'Hours logged in this position on the project' })
  hours_charged!: number;

  @ApiProperty({
    example: 1187.5,
    description: "hours_charged × the position's price on the project ratecard",
  })
  total_cost!: number;

  @ApiProperty({ type: ProjectPositionNameDto })
  userPositionName!: ProjectPositionNameDto;
}

class ProjectCategoryDto {
  @ApiProperty({ type: 'integer', example: 8 })
  id!: number;

  @ApiProperty({ type: 'integer', example: 2, description: 'Position category id' })
  category_id!: number;

  @ApiProperty({ example: 60, description: 'Hours' })
  estimated_hours!: number;

  @ApiProperty({ example: 20, description: "Hours logged in the category's positions" })
  hours_charged!: number;

  @ApiProperty({ example: 1900, description: 'Those hours at their ratecard prices' })
  total_cost!: number;
}

/** docs/spec/interfaces.md "Project (read shape)" (profitability figures arrive with hours and costs). */
export class ProjectDto {
  @ApiProperty({ type: 'integer', example: 88 }) id!: number;
  @ApiProperty(API_ROW_VERSION) version!: number;
  @ApiProperty({ type: 'integer', example: 1 }) company_id!: number;
  @ApiProperty({ type: 'integer', example: 7 }) client_id!: number;
  @ApiProperty({ type: 'integer', example: 12, nullable: true }) pm_id!: number | null;
  @ApiProperty({ type: 'integer', example: 12, nullable: true }) created_by!: number | null;
  @ApiProperty({ type: 'integer', example: null, nullable: true }) template_id!: number | null;
  @ApiProperty({ type: 'integer', example: 4, nullable: true }) brand_id!: number | null;
  @ApiProperty({ type: 'integer', example: 9, nullable: true }) product_id!: number | null;
  @ApiProperty({ type: 'integer', example: null, nullable: true }) fee_id!: number | null;
  @ApiProperty({ type: 'integer', example: null, nullable: true }) contract_id!: number | null;
  @ApiProperty({ example: 'Spring campaign' }) name!: string;
  @ApiProperty({ example: 'Launch the spring range' }) brief!: string;
  @ApiProperty({
    type: 'integer',
    enum: HEALTH_VALUES,
    example: 1,
    description: '1 on track, 2 at risk, 3 delayed, 4 critical',
  })
  health!: number;
  @ApiProperty({ example: ProjectStatus.Active, enum: Object.values(ProjectStatus) }) status!: string;
  @ApiProperty({
    type: String,
    example: '2026-03-01 00:00:00',
    nullable: true,
    ...TIMESTAMP,
    description: 'The start day, at 00:00:00',
  })
  start!: string | null;
  @ApiProperty({
    type: String,
    example: '2026-05-31 00:00:00',
    nullable: true,
    ...TIMESTAMP,
    description: 'The end day, at 00:00:00',
  })
  end!: string | null;
  @ApiProperty({
    example: 120,
    description: 'Hours: the total, or the sum of the active by-position or by-category estimates',
  })
  estimated_time!: number;
  @ApiProperty({ example: false }) archived!: boolean;
  @ApiProperty({ example: true }) billable!: boolean;
  @ApiProperty({
    example: 'hourly_rate',
    nullable: true,
    type: String,
    enum: [...INCOME_TYPES],
  })
  income_type!: IncomeType | null;
  @ApiProperty({
    example: 25000,
    nullable: true,
    type: Number,
    description: 'Fixed value of a one_time project',
  })
  estimated!: number | null;
  @ApiProperty({ example: [1, 4], type: 'integer', isArray: true, description: 'Project label ids' })
  labels!: number[];
  @ApiProperty({ example: true }) estimated_by_position!: boolean;
  @ApiProperty({ example: false }) estimation_by_categories!: boolean;
  @ApiProperty({ example: false }) estimated_by_hourly_rates!: boolean;
  @ApiProperty({ type: 'integer', example: 2, nullable: true, description: 'The assigned ratecard' })
  user_positions_header_id!: number | null;
  @ApiProperty({ example: 1.08, nullable: true, type: Number }) exchange!: number | null;
  @ApiProperty({ example: 23148.15, nullable: true, type: Number }) currency_change_amount!: number | null;
  @ApiProperty({ type: ProjectClientDto, nullable: true }) client!: ProjectClientDto | null;
  @ApiProperty({ type: ProjectPmDto, nullable: true }) pm!: ProjectPmDto | null;
  @ApiProperty({ example: '2026-11-22 10:15:00', ...TIMESTAMP, description: 'UTC' }) created_at!: string;
  @ApiProperty({ example: '2026-11-22 10:15:00', ...TIMESTAMP, description: 'UTC' }) updated_at!: string;
  @ApiProperty({ example: 32.5, description: 'Hours logged on the project' })
  elapsed_time!: number;

  @ApiProperty({
    example: 25000,
    description:
      'Expected income: one_time → estimated; fee → the fee estimate; hourly_rate → Σ position estimated hours × ratecard price; contract → 0',
  })
  total_estimated!: number;

  @ApiProperty({ example: 20500, description: 'total_estimated − Σ project_estimate costs (budget lines)' })
  estimated_profitability!: number;

  @ApiProperty({
    example: 23799.5,
    description:
      'Income earned so far (hourly_rate: Σ logged hours × ratecard price; otherwise total_estimated) − Σ project_cost',
  })
  profitability_now!: number;

  static from(project: ProjectShown, figures: ProjectSummaryFigures): ProjectDto {
    return {
      id: project.id,
      version: project.version,
      company_id: project.companyId,
      client_id: project.clientId,
      pm_id: project.pmId,
      created_by: project.createdBy,
      template_id: project.templateId,
      brand_id: project.brandId,
      product_id: project.productId,
      fee_id: project.feeId,
      contract_id: project.contractId,
      name: project.name,
      brief: project.brief,
      health: project.health,
      status: project.status,
      start: project.start ? `${project.start} 00:00:00` : null,
      end: project.end ? `${project.end} 00:00:00` : null,
      estimated_time: Number(project.estimatedTime),
      archived: project.archived,
      billable: project.billable,
      income_type: project.incomeType,
      estimated: project.estimated === null ? null : Number(project.estimated),
      labels: project.labels,
      estimated_by_position: project.estimatedByPosition,
      estimation_by_categories: project.estimationByCategories,
      estimated_by_hourly_rates: project.estimatedByHourlyRates,
      user_positions_header_id: project.userPositionsHeaderId,
      exchange: project.exchange === null ? null : Number(project.exchange),
      currency_change_amount:
        project.currencyChangeAmount === null ? null : Number(project.currencyChangeAmount),
      client: project.client
        ? {
            id: project.client.id,
            name: project.client.name,
            client_status_id: project.client.archived ? 2 : 1,
          }
        : null,
      pm: project.pm
        ? {
            id: project.pm.id,
            first_name: project.pm.firstName,
            last_name: project.pm.lastName,
            email: project.pm.email,
            role_id: project.pm.roleId,
          }
        : null,
      created_at: formatTimestamp(project.createdAt),
      updated_at: formatTimestamp(project.updatedAt),
      elapsed_time: figures.elapsedTime,
      total_estimated: figures.totalEstimated,
      estimated_profitability: figures.estimatedProfitability,
      profitability_now: figures.profitabilityNow,
    };
  }
}

/** The ratecard assigned to a project, as the project detail carries it. */
export class ProjectRatecardDto {
  @ApiProperty({ type: 'integer', example: 2 })
  id!: number;

  @ApiProperty({ example: 'Standard 2026' })
  name!: string;

  @ApiProperty({
    example: 'Standard',
    description: 'The ratecard this one derives from (its own name if an original)',
  })
  original_name!: string;

  @ApiProperty({ example: 100, description: 'Percentage of the base prices when linked to them' })
  percent!: number;

  @ApiProperty({ type: 'integer', example: 1, description: 'GET /currencies' })
  currency_id!: number;

  @ApiProperty({ example: false })
  linked_to_base_price!: boolean;
}

/** `GET /projects/{project_id}`: the read shape plus its estimate lines and ratecard. */
export class ProjectDetailDto extends ProjectDto {
  @ApiProperty({ type: [ProjectPositionDto] })
  usersPositionsProject!: ProjectPositionDto[];

  @ApiProperty({ type: [ProjectCategoryDto] })
  categoriesProject!: ProjectCategoryDto[];

  @ApiProperty({
    type: ProjectRatecardDto,
    nullable: true,
    description: 'The assigned ratecard; null without one',
  })
  ratecard!: ProjectRatecardDto | null;

  static fromDetail(project: ProjectDetailRow, figures: ProjectFigures): ProjectDetailDto {
    return {
      ...ProjectDto.from(project, figures),
      usersPositionsProject: project.positionLines.map((line) => ({
        id: line.id,
        user_positions_unified_id: line.positionId,
        project_id: line.projectId,
        estimated_hours: line.estimatedHours,
        hours_charged: figures.byPosition.get(line.positionId)?.hoursCharged ?? 0,
        total_cost: figures.byPosition.get(line.positionId)?.totalCost ?? 0,
        userPositionName: { name: line.positionName },
      })),
      categoriesProject: project.categoryLines.map((line) => ({
        id: line.id,
        category_id: line.categoryId,
        estimated_hours: line.estimatedHours,
        hours_charged: figures.byCategory.get(line.categoryId)?.hoursCharged ?? 0,
        total_cost: figures.byCategory.get(line.categoryId)?.totalCost ?? 0,
      })),
      ratecard: project.ratecard
        ? {
            id: project.ratecard.id,
            name: project.ratecard.name,
            original_name: project.ratecard.originalName,
            percent: project.ratecard.percent,
            currency_id: project.ratecard.currencyId,
            linked_to_base_price: project.ratecard.linkedToBasePrice,
          }
        : null,
    };
  }
}
