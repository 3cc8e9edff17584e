import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import {
  IsEntityId,
  IsEntityIdList,
  IsQueryIntegerInRange,
  MAX_ENTITY_ID,
  MayBeAbsent,
  MayBeAbsentOrNull,
} from '@platform/contracts';
import { ArrayMaxSize, IsArray, IsInt, IsString, Length, Matches, Max, Min } from 'class-validator';
import { ScenarioQueryDto } from '../../scenarios/dto/scenario-query.dto';

/** The most labels one placeholder carries. */
export const MAX_PLACEHOLDER_LABELS = 50;

/** The body of `POST /v2/placeholders`. */
export class CreatePlaceholderDto {
  @ApiProperty({ example: 'Senior designer', minLength: 1, maxLength: 100 })
  @IsString()
  @Length(1, 100)
  @Matches(/\S/, { message: 'name must not be blank' })
  name!: string;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    example: 3,
    description: 'The position to staff (a main-api position of your company)',
  })
  @MayBeAbsentOrNull()
  @IsEntityId()
  position_id?: number | null;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    example: 2,
    description:
      "A position category of your company; left out, the position's category. It must be the position's " +
      'category when the position has one',
  })
  @MayBeAbsentOrNull()
  @IsEntityId()
  category_id?: number | null;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    example: 7,
    description:
      'The project it is for (main-api), if any: lists filter on it; its allocations may be on any project',
  })
  @MayBeAbsentOrNull()
  @IsEntityId()
  project_id?: number | null;

  @ApiPropertyOptional({
    type: [Number],
    example: [5],
    default: [],
    description: `User labels (skills) the person who fills it should carry, at most ${MAX_PLACEHOLDER_LABELS}`,
  })
  @MayBeAbsent()
  @IsArray()
  @ArrayMaxSize(MAX_PLACEHOLDER_LABELS)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(MAX_ENTITY_ID, { each: true })
  label_ids?: number[];
}

/** The body of `PATCH /v2/placeholders/{id}`: what changes. */
export class UpdatePlaceholderDto extends PartialType(CreatePlaceholderDto, { skipNullProperties: false }) {}

export const MAX_PLACEHOLDERS_PER_PAGE = 500;

/** `GET /v2/placeholders`: the company's placeholders by name, then id, a cursor page at a time. */
export class ListPlaceholdersQueryDto extends ScenarioQueryDto {
  @ApiPropertyOptional({
    example: 100,
    description: `At most this many placeholders (1 to ${MAX_PLACEHOLDERS_PER_PAGE}, default 100)`,
  })
  @MayBeAbsent()
  @IsQueryIntegerInRange(1, MAX_PLACEHOLDERS_PER_PAGE)
  limit: number = 100;

  @ApiPropertyOptional({ description: 'The next_cursor of the previous page' })
  @MayBeAbsent()
  @Matches(/^[A-Za-z0-9_-]{1,1000}$/, { message: 'cursor must be the next_cursor of a previous page' })
  cursor?: string;

  @ApiPropertyOptional({ example: '7', description: 'Only those for these projects (comma-separated ids)' })
  @MayBeAbsent()
  @IsEntityIdList()
  project_ids?: string;

  @ApiPropertyOptional({ example: '3', description: 'Only those of these positions (comma-separated ids)' })
  @MayBeAbsent()
  @IsEntityIdList()
  position_ids?: string;

  @ApiPropertyOptional({ example: '2', description: 'Only those of these categories (comma-separated ids)' })
  @MayBeAbsent()
  @IsEntityIdList()
  category_ids?: string;
}

/** A placeholder as `/v2/placeholders` answers it. */
export class PlaceholderDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ example: 'Senior designer' }) name!: string;
  @ApiProperty({ type: 'integer', nullable: true, example: 3 }) position_id!: number | null;
  @ApiProperty({ type: 'integer', nullable: true, example: 2 }) category_id!: number | null;
  @ApiProperty({ type: 'integer', nullable: true, example: 7 }) project_id!: number | null;
  @ApiProperty({ type: [Number], example: [5], description: 'User labels' }) label_ids!: number[];
  @ApiProperty({ example: 1, description: 'The row version: the ETag names it' }) version!: number;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class PlaceholderPageDto {
  @ApiProperty({ type: [PlaceholderDto] }) data!: PlaceholderDto[];
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Pass as cursor for the next page; null on the last',
  })
  next_cursor!: string | null;
  @ApiProperty() has_more!: boolean;
}
