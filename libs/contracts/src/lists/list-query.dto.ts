import { IsQueryIntegerInRange, MayBeAbsent, UTC_DATE_TIME } from '../validation/field-decorators';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsString, Matches, Max, MaxLength, Min, ValidateIf } from 'class-validator';

export const MAX_PER_PAGE = 500;
export const MAX_UNPAGED_RESULTS = 10_000;

/** The last page anyone may ask for: 1,000,000 pages of 500 is far beyond any real list. */
export const MAX_PAGE = 1_000_000;

/** `fields=`: up to 50 comma-separated snake_case names (sparse-fieldsets.ts applies them). */
export const SPARSE_FIELDS = /^[a-z][a-z0-9_]{0,59}(,[a-z][a-z0-9_]{0,59}){0,49}$/;

/** The keys every list sorts by; a resource may allow more (its route's description names them). */
export const COMMON_SORT_KEYS = ['id', 'created_at', 'updated_at'] as const;

/**
 * `page`, `perPage` and `filters` of every list (docs/spec/decisions.md §5), and what issue 36 added
 * beside them: cursors (`limit`, `cursor`), `sort`, `updated_since` and `include_deleted`.
 */
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

  @ApiPropertyOptional({
    // No example: Swagger UI's Try it out sends every example, and limit with page is a 400.
    description: `Cursor pages: at most this many results (1 to ${MAX_PER_PAGE}), answered as {data, next_cursor, has_more}. With limit or cursor the answer is a cursor page; without both, the page/perPage body`,
  })
  @MayBeAbsent()
  @IsQueryIntegerInRange(1, MAX_PER_PAGE)
  limit?: number;

  @ApiPropertyOptional({
    description:
      'Cursor pages: the next_cursor of the previous answer (opaque), with the same sort and filters',
  })
  @MayBeAbsent()
  @IsString({ message: 'cursor must be the next_cursor of a previous answer' })
  @MaxLength(1000, { message: 'cursor must be the next_cursor of a previous answer' })
  cursor?: string;

  @ApiPropertyOptional({
    description: `Comma-separated sort keys, each ascending or with - descending; ties by id. Every list sorts by ${COMMON_SORT_KEYS.join(', ')}; some by more (named in the route's description)`,
    example: '-updated_at,id',
  })
  @MayBeAbsent()
  @IsString({ message: 'sort must be comma-separated sort keys' })
  @Matches(/^-?[a-z_]{1,40}(,-?[a-z_]{1,40}){0,4}$/, {
    message: 'sort must be up to 5 comma-separated keys, each optionally preceded by -',
  })
  sort?: string;

  @ApiPropertyOptional({
    description:
      "Sparse fieldsets, with limit or cursor: comma-separated fields of the result's schema; each result of the cursor page has only those (and id). An unknown field is a 400 naming it",
    // No example: Swagger UI's Try it out sends every example, and fields without limit is a 400.
  })
  @MayBeAbsent()
  @IsString({ message: 'fields must be comma-separated field names' })
  @Matches(SPARSE_FIELDS, { message: 'fields must be up to 50 comma-separated field names (a-z, 0-9, _)' })
  fields?: string;

  @ApiPropertyOptional({
    description: 'Only what changed after this instant (updated_at), UTC: YYYY-MM-DDTHH:mm:ss[.sss]Z',
    example: '2026-11-27T09:00:00Z',
  })
  @MayBeAbsent()
  @IsString({ message: 'updated_since must be a UTC date-time (YYYY-MM-DDTHH:mm:ssZ)' })
  @Matches(UTC_DATE_TIME, { message: 'updated_since must be a UTC date-time (YYYY-MM-DDTHH:mm:ssZ)' })
  updated_since?: string;

  @ApiPropertyOptional({
    description:
      'true: deleted results too (tombstones, with deleted_at set), for a sync that must learn of deletions',
    enum: ['true', 'false'],
  })
  @MayBeAbsent()
  @IsIn(['true', 'false'], { message: 'include_deleted must be true or false' })
  include_deleted?: 'true' | 'false';
}

/** A cursor page (`limit` or `cursor` sent): `next_cursor` is null on the last one. */
export interface CursorPage<T> {
  data: T[];
  next_cursor: string | null;
  has_more: boolean;
}

/** What a list answers: the page/perPage body, a plain array (page=false), or a cursor page. */
export type ListAnswer<T> = Paginated<T> | T[] | CursorPage<T>;

/** The paginated list body (docs/spec/interfaces.md "Reference values"). */
export interface Paginated<T> {
  total: string;
  perPage: number;
  page: number;
  lastPage: number;
  data: T[];
}
