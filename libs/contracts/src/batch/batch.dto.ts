import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsObject,
  IsString,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { MayBeAbsent } from '../validation/field-decorators';

/** The most operations one batch may carry. */
export const MAX_BATCH_OPERATIONS = 500;

/** An operation's `ref`: what `{{<ref>.<field>}}` placeholders name. */
export const BATCH_REF_PATTERN = /^[A-Za-z0-9_-]{1,100}$/;

export const BATCH_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type BatchMethod = (typeof BATCH_METHODS)[number];

/** One operation of a batch: a request as the route itself takes it. */
export class BatchOperationDto {
  @ApiPropertyOptional({
    description:
      "The caller's name for this operation, unique in the batch and echoed in its result. A later " +
      "operation's `path` and body strings may use `{{<ref>.<field>}}` for a field of this one's answer " +
      '(e.g. `{{client-1.id}}`); a string that is only the placeholder takes the value as it is (a number stays a number)',
    example: 'client-1',
    pattern: BATCH_REF_PATTERN.source,
  })
  @MayBeAbsent()
  @Matches(BATCH_REF_PATTERN, { message: 'ref must be 1 to 100 letters, digits, _ or -' })
  ref?: string;

  @ApiProperty({ enum: BATCH_METHODS, example: 'POST' })
  @IsIn(BATCH_METHODS, { message: `method must be one of ${BATCH_METHODS.join(', ')}` })
  method!: BatchMethod;

  @ApiProperty({
    description: "The route's path as in its URL, query string included (e.g. `/v1/clients`)",
    example: '/v1/clients',
    maxLength: 2000,
  })
  @IsString()
  @MaxLength(2000)
  @Matches(/^\/[^\s#]*$/, { message: 'path must be a URL path starting with /' })
  path!: string;

  @ApiPropertyOptional({
    description: "The route's JSON body",
    type: 'object',
    additionalProperties: true,
    example: { name: 'Northwind' },
  })
  @MayBeAbsent()
  @IsObject({ message: 'body must be a JSON object' })
  body?: Record<string, unknown>;

  @ApiPropertyOptional({
    description: "Sent as the operation's If-Match header: the ETag the change is based on",
    example: '"3-1f0c6a2b9d8e7f10"',
    maxLength: 500,
  })
  @MayBeAbsent()
  @IsString()
  @MaxLength(500)
  if_match?: string;
}

/** `POST /v1/batch` (main-api) and `POST /v2/batch` (planner). */
export class BatchRequestDto {
  @ApiProperty({
    type: [BatchOperationDto],
    description: `1 to ${MAX_BATCH_OPERATIONS} operations, run in order`,
    minItems: 1,
    maxItems: MAX_BATCH_OPERATIONS,
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_BATCH_OPERATIONS)
  @ValidateNested({ each: true })
  @Type(() => BatchOperationDto)
  operations!: BatchOperationDto[];

  @ApiPropertyOptional({
    description:
      'true (default): one transaction, all or nothing; 409 with every result when any operation fails. false: each operation on its own, 207 with every result',
    default: true,
  })
  @MayBeAbsent()
  @IsBoolean()
  atomic?: boolean;

  @ApiPropertyOptional({
    description:
      'Run and answer everything, then roll it all back: nothing is saved, nothing reaches the change feed',
    default: false,
  })
  @MayBeAbsent()
  @IsBoolean()
  dry_run?: boolean;
}

export class BatchResultHeadersDto {
  @ApiPropertyOptional({ description: "The operation's ETag" })
  etag?: string;

  @ApiPropertyOptional({ description: "The operation's Location" })
  location?: string;
}

/** What one operation answered, as its route answers it. */
export class BatchResultDto {
  @ApiPropertyOptional({ description: "The operation's `ref`, when it had one" })
  ref?: string;

  @ApiProperty({ description: 'The index of the operation in the batch, from 0' })
  index!: number;

  @ApiProperty({ description: "The route's status code", example: 201 })
  status!: number;

  @ApiProperty({ type: BatchResultHeadersDto })
  headers!: BatchResultHeadersDto;

  @ApiProperty({
    description: "The route's JSON answer (its error body when it failed), or null when it had none",
    oneOf: [{ type: 'object', additionalProperties: true }, { type: 'array', items: {} }, { type: 'null' }],
  })
  body!: unknown;
}

export class BatchAnswerDto {
  @ApiProperty({
    description: 'Whether the results are saved: false for a dry run, and for an atomic batch that failed',
  })
  committed!: boolean;

  @ApiProperty()
  dry_run!: boolean;

  @ApiProperty({ type: [BatchResultDto] })
  results!: BatchResultDto[];
}
