import { IsCurrencyId, IsDateOnly, IsEntityId, MayBeAbsent } from '@platform/contracts';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsNumber, IsString, Length, Matches, Max, Min } from 'class-validator';
import type { ProjectCost, ProjectEstimate } from '../project-finance.entities';

const MONEY = { allowNaN: false, allowInfinity: false, maxDecimalPlaces: 2 } as const;

/** docs/spec/interfaces.md "Project estimate" (cost travels as a string). */
export class CreateProjectEstimateDto {
  @ApiProperty({ example: 'Photography' }) @IsString() @Length(1, 300) title!: string;

  @ApiProperty({ example: '4500.00', description: 'Decimal amount as a string' })
  @Matches(/^\d{1,12}(\.\d{1,2})?$/, { message: 'cost must be a decimal amount such as 4500.00' })
  cost!: string;

  @ApiProperty({ example: '2026-03-15' })
  @IsDateOnly()
  datetime!: string;

  @ApiPropertyOptional({ example: 1 }) @MayBeAbsent() @IsCurrencyId() currency_id?: number;

  @ApiPropertyOptional({ example: 3 }) @MayBeAbsent() @IsInt() @Min(1) @Max(2_147_483_647) fee_id?: number;
}

export class ProjectEstimateDto {
  @ApiProperty({ example: 14 }) id!: number;
  @ApiProperty({ example: 'Photography' }) title!: string;
  @ApiProperty({ example: '4500.00' }) cost!: string;
  @ApiProperty({ example: '2026-03-15' }) datetime!: string;
  @ApiProperty({ example: 1 }) currency_id!: number;
  @ApiProperty({ example: 3, nullable: true, type: Number }) fee_id!: number | null;

  static from(estimate: ProjectEstimate): ProjectEstimateDto {
    return {
      id: estimate.id,
      title: estimate.title,
      cost: estimate.cost,
      datetime: estimate.datetime,
      currency_id: estimate.currencyId,
      fee_id: estimate.feeId,
    };
  }
}

/** docs/spec/interfaces.md "Project cost". */
export class CreateProjectCostDto {
  @ApiProperty({ example: 'Location rental' }) @IsString() @Length(1, 300) title!: string;

  @ApiProperty({ example: 1200.5 }) @IsNumber(MONEY) @Min(0) @Max(999_999_999_999.99) cost!: number;

  @ApiProperty({ example: '2026-03-20' })
  @IsDateOnly()
  datetime!: string;

  @ApiPropertyOptional({ example: 4 }) @MayBeAbsent() @IsInt() @Min(1) @Max(2_147_483_647) label_id?: number;

  @ApiPropertyOptional({ example: 14, description: 'The budget line it spends' })
  @MayBeAbsent()
  @IsEntityId()
  project_estimate_id?: number;

  @ApiPropertyOptional({ example: 7 })
  @MayBeAbsent()
  @IsEntityId()
  id_project_history?: number;
}

export class ProjectCostDto {
  @ApiProperty({ example: 21 }) id!: number;
  @ApiProperty({ example: 'Location rental' }) title!: string;
  @ApiProperty({ example: 1200.5 }) cost!: number;
  @ApiProperty({ example: '2026-03-20' }) datetime!: string;
  @ApiProperty({ example: 4, nullable: true, type: Number }) label_id!: number | null;
  @ApiProperty({ example: 14, nullable: true, type: Number }) project_estimate_id!: number | null;
  @ApiProperty({ example: 7, nullable: true, type: 'integer' }) id_project_history!: number | null;

  static from(cost: ProjectCost): ProjectCostDto {
    return {
      id: cost.id,
      title: cost.title,
      cost: Number(cost.cost),
      datetime: cost.datetime,
      label_id: cost.labelId,
      project_estimate_id: cost.projectEstimateId,
      id_project_history: cost.idProjectHistory,
    };
  }
}
