import { applyDecorators, type Type } from '@nestjs/common';
import {
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiProperty,
  ApiPropertyOptional,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { Matches, ValidateBy } from 'class-validator';
import { IsQueryIntegerInRange, MayBeAbsent } from '../validation/field-decorators';

export const MAX_WATCH_SECONDS = 55;
const DEFAULT_WATCH_SECONDS = 20;
/** A PostgreSQL snapshot as text (`xmin:xmax:xip,…`); at most 200 transactions in progress. */
const POSITION = /^\d{1,20}:\d{1,20}:(\d{1,20}(,\d{1,20}){0,199})?$/;
/** The largest transaction id the watch's read takes (it compares them as bigint). */
const MAX_TRANSACTION_ID = 2n ** 63n - 1n;
const POSITION_MESSAGE = 'after must be the position of a previous answer';

/**
 * What PostgreSQL accepts as a snapshot, and the watch's read as bigints: 1 <= xmin <= xmax within
 * bigint, the transactions in progress ascending from xmin and below xmax. Anything else would fail
 * in the statement (500) instead of here (400).
 */
export function isSnapshotPosition(value: unknown): boolean {
  if (typeof value !== 'string' || !POSITION.test(value)) {
    return false;
  }
  const [xmin, xmax, inProgress] = value.split(':') as [string, string, string];
  const low = BigInt(xmin);
  const high = BigInt(xmax);
  if (low < 1n || low > high || high > MAX_TRANSACTION_ID) {
    return false;
  }
  let previous = low - 1n;
  for (const id of inProgress === '' ? [] : inProgress.split(',').map(BigInt)) {
    if (id <= previous || id >= high) {
      return false;
    }
    previous = id;
  }
  return true;
}

export class ChangeFeedWatchQueryDto {
  @ApiPropertyOptional({
    description:
      'The `position` of the previous answer. Absent: answers at once with the current position and `reset`.',
    type: String,
    pattern: POSITION.source,
    example: '1042:1045:1043',
  })
  @MayBeAbsent()
  @Matches(POSITION, { message: POSITION_MESSAGE })
  @ValidateBy(
    { name: 'isSnapshotPosition', validator: { validate: isSnapshotPosition } },
    { message: POSITION_MESSAGE },
  )
  after?: string;

  @ApiPropertyOptional({
    description: `Seconds to wait for a company to have new events before answering none, 0 to ${MAX_WATCH_SECONDS} (default ${DEFAULT_WATCH_SECONDS})`,
    example: DEFAULT_WATCH_SECONDS,
  })
  @MayBeAbsent()
  @IsQueryIntegerInRange(0, MAX_WATCH_SECONDS)
  wait: number = DEFAULT_WATCH_SECONDS;
}

/** The answer of a change-feed watch (main-api's and the planner's), for the integrations service. */
export class ChangeFeedWatchDto {
  @ApiProperty({
    description: 'Pass it as `after` to the next watch: every event committed since is then reported',
    example: '1042:1045:1043',
  })
  position!: string;

  @ApiProperty({
    description:
      'true when `after` was absent or unusable (e.g. from before a database restore): read every company feed once',
    example: false,
  })
  reset!: boolean;

  @ApiProperty({
    description:
      'Companies with events committed after `after`, in id order; their feeds are read with their own tokens',
    type: [Number],
    example: [7, 12],
  })
  companies!: number[];
}

/**
 * The OpenAPI description of a service's change-feed watch (main-api's `GET /v1/events/watch`, the
 * planner's `GET /v2/events/watch`): `events` says whose events, `errorBody` is the service's own.
 */
export function ApiChangeFeedWatch(events: string, errorBody: Type): MethodDecorator {
  return applyDecorators(
    ApiOperation({
      summary: `Which companies have new ${events} (the integrations service only; a long poll)`,
      description:
        'For the integrations service, signed as itself (X-Service-Signature under CHANGE_ORIGIN_KEY), not for a ' +
        'company: answers the ids of the companies with events committed after `after`, and the position to ' +
        'pass next. With none it waits up to `wait` seconds and is woken by the first commit that appends ' +
        "events. It never answers events: each company feed is still read with that company's own token.",
    }),
    ApiHeader({
      // SERVICE_SIGNATURE_HEADER of libs/auth.
      name: 'x-service-signature',
      required: true,
      description: '`integrations.<unix seconds>.<base64url HMAC-SHA256>` (libs/auth service-signature.ts)',
    }),
    ApiOkResponse({ type: ChangeFeedWatchDto }),
    ApiUnauthorizedResponse({
      type: errorBody,
      description: 'The caller is not the integrations service (signature missing, stale or wrong)',
    }),
  );
}
