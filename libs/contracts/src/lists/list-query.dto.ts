import { IsQueryIntegerInRange, MayBeAbsent } from '../validation/field-decorators';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsString, Max, MaxLength, Min, ValidateIf } from 'class-validator';

export const MAX_PER_PAGE = 500;
export const MAX_UNPAGED_RESULTS = 10_000;

/** The last page anyone may ask for: 1,000,000 pages of 500 is far beyond any real list. */
export const MAX_PAGE = 1_000_000;

/** `page`, `perPage` and `filters` of every list (docs/spec/decisions.md §5). */
export class ListQueryDto {
  @ApiPropertyOptional({
    description:
      'Page number from 1 to 1,000,000 (default 1), or `false` for a plain array of every result (at most 10,000)',
    // A query value is text: a positive integer, or the word false.
    type: String,
    pattern: '^([1-9][0-9]*|false)$',
    example: '1',
  })
  @MayBeAbsent()
  @Transform(({ value }: { value: unknown }) =>
    value === 'false' ? false : /^\d+$/.test(String(value)) ? Number(value) : value,
  )
  @ValidateIf((_object, value) => value !== false)
  @IsInt({ message: 'page must be a positive integer or false' })
  @Min(1, { message: 'page must be a positive integer or false' })
  // Beyond this the offset would overflow the database's bigint (found by fuzzing).
  @Max(MAX_PAGE, { message: `page must be at most ${MAX_PAGE}, or false` })
  page?: number | false;

  @ApiPropertyOptional({ description: `Page size, 1 to ${MAX_PER_PAGE} (default 20)`, example: 20 })
  @MayBeAbsent()
  @IsQueryIntegerInRange(1, MAX_PER_PAGE)
  perPage?: number;

  @ApiPropertyOptional({
    description:
      'URL-encoded JSON object; each key is a filter of this resource, each value a scalar (equals) or an array (any of)',
    // The example is each list's own (@ApiFiltersExample): the keys differ per resource.
  })
  @MayBeAbsent()
  @IsString({ message: 'filters must be a URL-encoded JSON object' })
  @MaxLength(4000, { message: 'filters must be at most 4000 characters' })
  filters?: string;
}

/** The paginated list body (docs/spec/interfaces.md "Reference values"). */
export interface Paginated<T> {
  total: string;
  perPage: number;
  page: number;
  lastPage: number;
  data: T[];
}
