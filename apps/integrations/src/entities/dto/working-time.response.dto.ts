import { ApiProperty } from '@nestjs/swagger';

/** interfaces.md "Working time entry": one day of a user's working week. */
export class WorkingTimeEntryResponseDto {
  @ApiProperty({ type: Number, example: 8 })
  daily_hours!: number;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    maximum: 6,
    example: 1,
    description: '0 = Sunday … 6 = Saturday',
  })
  day_of_week!: number;

  @ApiProperty({
    type: String,
    pattern: '^\\d{2}:\\d{2}:\\d{2}$',
    example: '09:00:00',
    description: 'HH:mm:ss',
  })
  start_at!: string;

  @ApiProperty({
    type: String,
    pattern: '^\\d{2}:\\d{2}:\\d{2}$',
    example: '18:00:00',
    description: 'HH:mm:ss',
  })
  end_at!: string;

  @ApiProperty({ type: 'integer', example: 12, description: 'Platform id of the user' })
  user_id!: number;

  @ApiProperty({ type: Number, example: 1, description: 'Hours of break' })
  break_time!: number;
}
