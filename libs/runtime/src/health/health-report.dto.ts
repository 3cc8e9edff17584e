import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';

export class LivenessDto {
  @ApiProperty({ enum: ['ok'] }) status!: 'ok';
}

/** One checked dependency, as @nestjs/terminus reports it. */
export class DependencyStatusDto {
  @ApiProperty({ enum: ['up', 'down'] }) status!: 'up' | 'down';
  @ApiPropertyOptional({ example: 'timeout of 2000ms exceeded', description: 'Why it is down' })
  message?: string;
  @ApiPropertyOptional({ type: 'integer', example: 3, description: 'How long the check took (ms)' })
  responseTime?: number;
}

const DEPENDENCIES = {
  type: 'object' as const,
  description:
    'By dependency name: database, and main-api where the service calls it (in `/health/ready`, not in `/health/ready/self`)',
  additionalProperties: { $ref: getSchemaPath(DependencyStatusDto) },
};

/** @nestjs/terminus' report: `ok` with every dependency up, `error` naming those that are down. */
export class HealthReportDto {
  @ApiProperty({ enum: ['ok', 'error', 'shutting_down'] }) status!: string;
  @ApiPropertyOptional(DEPENDENCIES) info?: Record<string, DependencyStatusDto>;
  @ApiPropertyOptional(DEPENDENCIES) error?: Record<string, DependencyStatusDto>;
  @ApiProperty(DEPENDENCIES) details!: Record<string, DependencyStatusDto>;
}
