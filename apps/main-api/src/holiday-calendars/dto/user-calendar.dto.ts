import { ApiProperty } from '@nestjs/swagger';
import { API_ROW_VERSION, IsDateOnly, IsEntityId } from '@platform/contracts';
import { IsString, IsTimeZone, MaxLength } from 'class-validator';

export class TimeZoneDto {
  @ApiProperty({ example: 'Europe/Paris', description: 'An IANA time zone: partial leaves are read in it' })
  @IsString()
  @MaxLength(64)
  @IsTimeZone({ message: 'time_zone must be an IANA time zone such as Europe/Paris or America/New_York' })
  time_zone!: string;
}

export class CreateCalendarMembershipDto {
  @ApiProperty({ example: 3, description: 'A holiday calendar of your company' })
  @IsEntityId()
  calendar_id!: number;

  @ApiProperty({
    example: '2027-01-01',
    description: "First day it is the person's calendar (until the next membership's first day)",
  })
  @IsDateOnly()
  effective_from!: string;
}

export class CalendarMembershipDto {
  @ApiProperty({ example: 8 }) id!: number;
  @ApiProperty(API_ROW_VERSION) version!: number;
  @ApiProperty({ example: 3 }) calendar_id!: number;
  @ApiProperty({ example: 'France' }) calendar_name!: string;
  @ApiProperty({ example: '2027-01-01' }) effective_from!: string;
}

/** `GET /users/{id}/calendar`: where a person's days off come from. */
export class UserCalendarDto {
  @ApiProperty({ example: 12 }) user_id!: number;
  @ApiProperty({ example: 'Europe/Paris' }) time_zone!: string;
  @ApiProperty({ type: [CalendarMembershipDto], description: 'By first day' })
  memberships!: CalendarMembershipDto[];
}
