import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CHANGE_FEED_ENTITIES, MAX_ENTITY_ID, MayBeAbsent } from '@platform/contracts';
import { STREAM_TICKET_PATTERN } from '@platform/database';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsInt,
  IsString,
  Matches,
  Max,
  Min,
} from 'class-validator';

/** `POST /v1/events/stream-tickets`: what the stream carries; left out, everything of the company. */
export class CreateStreamTicketDto {
  @ApiPropertyOptional({
    type: [String],
    enum: CHANGE_FEED_ENTITIES,
    example: ['projects', 'hours'],
    description: 'Only events of these entity kinds',
  })
  @MayBeAbsent()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(CHANGE_FEED_ENTITIES.length)
  @IsIn(CHANGE_FEED_ENTITIES, { each: true })
  entities?: string[];

  @ApiPropertyOptional({
    type: [Number],
    example: [88, 91],
    maxItems: 500,
    description: "Only events of these projects' (events without a project are left out)",
  })
  @MayBeAbsent()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(500)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(MAX_ENTITY_ID, { each: true })
  project_ids?: number[];
}

export class StreamTicketDto {
  @ApiProperty({ example: 'bVx3...', description: 'Opaque; put it in the stream URL' })
  ticket!: string;

  @ApiProperty({
    format: 'date-time',
    example: '2026-11-28T10:15:30.000Z',
    description: 'Open the stream before this',
  })
  expires_at!: string;

  @ApiProperty({
    example: '/v1/events/stream?ticket=bVx3...',
    description: "The stream's path, ticket included",
  })
  stream_url!: string;
}

/** `GET /v1/events/stream`. */
export class EventStreamQueryDto {
  @ApiProperty({ example: 'bVx3...', description: 'From POST /v1/events/stream-tickets' })
  @IsString()
  @Matches(STREAM_TICKET_PATTERN, { message: 'ticket must be a ticket from POST /v1/events/stream-tickets' })
  ticket!: string;

  @ApiPropertyOptional({
    example: '4211',
    description:
      'Start after this cursor when the request has no Last-Event-ID (a new stream that goes on where an ended one stopped)',
  })
  @MayBeAbsent()
  @Matches(/^\d{1,18}$/, { message: 'after must be a cursor of the feed' })
  after?: string;
}
