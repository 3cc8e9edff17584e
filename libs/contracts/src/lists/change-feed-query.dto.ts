import { ApiPropertyOptional } from '@nestjs/swagger';
import { Matches } from 'class-validator';
import { IsQueryIntegerInRange, MayBeAbsent } from '../validation/field-decorators';

/** The query of a service's change feed (main-api's `GET /v1/events`, the planner's `GET /v2/events`). */
export const MAX_EVENTS_PER_PAGE = 1000;
const DEFAULT_EVENTS_PER_PAGE = 100;

export class ChangeFeedQueryDto {
  @ApiPropertyOptional({
    description:
      'Return the events after this cursor (the `next_cursor` of the previous page); 0 (default) starts at the oldest event still retained',
    type: String,
    pattern: '^(0|[1-9][0-9]{0,17})$',
    example: '0',
  })
  @MayBeAbsent()
  // Up to 18 digits: every value fits the bigint cursor.
  @Matches(/^(0|[1-9][0-9]{0,17})$/, { message: 'after must be a cursor: a non-negative integer' })
  after: string = '0';

  @ApiPropertyOptional({
    description: `Events per page, 1 to ${MAX_EVENTS_PER_PAGE} (default ${DEFAULT_EVENTS_PER_PAGE})`,
    example: DEFAULT_EVENTS_PER_PAGE,
  })
  @MayBeAbsent()
  @IsQueryIntegerInRange(1, MAX_EVENTS_PER_PAGE)
  limit: number = DEFAULT_EVENTS_PER_PAGE;
}
