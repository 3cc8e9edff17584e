import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CHANGE_FEED_ENTITIES, MayBeAbsent, type ChangeFeedEntity } from '@platform/contracts';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsIn,
  IsString,
  Length,
  MaxLength,
} from 'class-validator';
import { WithMetadataDto } from '../../entities/dto/integration-common.dto';
import { CHANGE_KINDS, type ChangeKind } from '../change-kind';

/** `POST /subscriptions`: where to send which changes, and the API client that reads them. */
export class CreateSubscriptionDto extends WithMetadataDto {
  @ApiProperty({
    example: 'https://hooks.example.com/agency-platform',
    maxLength: 2048,
    description:
      'Where each change is POSTed. https, no user:password@, and a host resolving only to public ' +
      'addresses (private, loopback, link-local, unique-local, multicast and unspecified ones are ' +
      'refused, also in IPv4-mapped IPv6 form), unless its origin is in SUBSCRIPTION_HTTP_ALLOWED_ORIGINS. ' +
      'Checked again before every attempt. Redirects are not followed.',
  })
  @IsString({ message: 'url must be a string' })
  @MaxLength(2048, { message: 'url must be at most 2048 characters' })
  url!: string;

  @ApiPropertyOptional({
    enum: CHANGE_FEED_ENTITIES,
    isArray: true,
    example: ['projects', 'clients'],
    description: 'Entities wanted; absent or empty: all of them',
  })
  @MayBeAbsent()
  @IsArray({ message: 'entities must be an array' })
  @ArrayMaxSize(CHANGE_FEED_ENTITIES.length, { message: 'entities must name each entity at most once' })
  @ArrayUnique({ message: 'entities must name each entity at most once' })
  @IsIn(CHANGE_FEED_ENTITIES, {
    each: true,
    message: `entities must be among ${CHANGE_FEED_ENTITIES.join(', ')}`,
  })
  entities?: ChangeFeedEntity[];

  @ApiPropertyOptional({
    enum: CHANGE_KINDS,
    isArray: true,
    example: ['created', 'updated'],
    description: 'Kinds of change wanted; absent: all three',
  })
  @MayBeAbsent()
  @IsArray({ message: 'kinds must be an array' })
  @ArrayMinSize(1, { message: 'kinds must name at least one kind (leave it out for all)' })
  @ArrayUnique({ message: 'kinds must name each kind at most once' })
  @IsIn(CHANGE_KINDS, { each: true, message: `kinds must be among ${CHANGE_KINDS.join(', ')}` })
  kinds?: ChangeKind[];

  @ApiProperty({
    example: 'ak_3f9c…',
    description: 'api_key of an API client of your company (role 1 or 2): the change feed is read with it',
  })
  @IsString()
  @Length(1, 100)
  api_key!: string;

  @ApiProperty({ example: 'cs_…', description: 'Its client secret: kept encrypted, never shown again' })
  @IsString()
  @Length(1, 500)
  client_secret!: string;
}
