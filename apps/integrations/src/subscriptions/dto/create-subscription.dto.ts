import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { SUBSCRIPTION_ENTITIES, MayBeAbsent, type SubscriptionEntity } from '@platform/contracts';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsIn,
  IsInt,
  IsString,
  Length,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { WithMetadataDto } from '../../entities/dto/integration-common.dto';
import { CHANGE_KINDS, type ChangeKind } from '../change-kind';
import { SUBSCRIPTION_PAYLOADS, type SubscriptionPayload } from '../webhook-subscription.entity';

/** The most projects one subscription may name. */
export const MAX_SUBSCRIPTION_PROJECTS = 100;

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
    enum: SUBSCRIPTION_ENTITIES,
    isArray: true,
    example: ['projects', 'clients'],
    description: 'Entities wanted; absent or empty: all of them',
  })
  @MayBeAbsent()
  @IsArray({ message: 'entities must be an array' })
  @ArrayMaxSize(SUBSCRIPTION_ENTITIES.length, { message: 'entities must name each entity at most once' })
  @ArrayUnique({ message: 'entities must name each entity at most once' })
  @IsIn(SUBSCRIPTION_ENTITIES, {
    each: true,
    message: `entities must be among ${SUBSCRIPTION_ENTITIES.join(', ')}`,
  })
  entities?: SubscriptionEntity[];

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

  @ApiPropertyOptional({
    type: [Number],
    example: [12, 40],
    description:
      'Only the changes of these projects: the projects themselves and their tasks, hours, costs and ' +
      'estimates (each change event names its project). Absent or empty: every change, of any entity',
    maxItems: MAX_SUBSCRIPTION_PROJECTS,
  })
  @MayBeAbsent()
  @IsArray({ message: 'project_ids must be an array of project ids' })
  @ArrayMaxSize(MAX_SUBSCRIPTION_PROJECTS, {
    message: `project_ids must name at most ${MAX_SUBSCRIPTION_PROJECTS} projects`,
  })
  @ArrayUnique({ message: 'project_ids must name each project at most once' })
  @IsInt({ each: true, message: 'project_ids must be positive integers' })
  @Min(1, { each: true, message: 'project_ids must be positive integers' })
  @Max(2147483647, { each: true, message: 'project_ids must be positive integers' })
  project_ids?: number[];

  @ApiPropertyOptional({
    enum: SUBSCRIPTION_PAYLOADS,
    default: 'thin',
    description:
      'thin (default): each webhook names the change (entity, id, kind, fields). snapshot: it also ' +
      "carries `data.snapshot`, the entity as main-api's route answers it right after the change was " +
      'read (null for a deletion, and for kinds without a route by id: fees, project costs and ' +
      'estimates, user leaves)',
  })
  @MayBeAbsent()
  @IsIn(SUBSCRIPTION_PAYLOADS, { message: `payload must be one of ${SUBSCRIPTION_PAYLOADS.join(', ')}` })
  payload?: SubscriptionPayload;

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
