import { ApiProperty } from '@nestjs/swagger';

/** interfaces.md "User leave" response, every date-time in ISO 8601 UTC (decisions §5). */
export class UserLeaveResponseDto {
  @ApiProperty({ type: 'integer', example: 3, description: 'Platform id' })
  id!: number;

  @ApiProperty({ type: 'integer', example: 12, description: 'Platform id of the user' })
  user_id!: number;

  @ApiProperty({ type: 'integer', example: 3 })
  company_id!: number;

  @ApiProperty({
    type: 'integer',
    enum: [1, 2, 3, 4, 5, 6],
    example: 1,
    description: '1 Vacation, 2 Sick leave, 3 Personal, 4 Parental, 5 Unpaid, 6 Other',
  })
  leave_type_id!: number;

  @ApiProperty({ type: String, format: 'date-time', example: '2026-12-21T00:00:00.000Z' })
  start!: string;

  @ApiProperty({ type: String, format: 'date-time', example: '2026-12-24T23:59:59.000Z' })
  end!: string;

  @ApiProperty({ type: Boolean, example: true })
  all_day!: boolean;

  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-22T10:15:00.000Z' })
  created_at!: string;

  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-22T10:15:00.000Z' })
  updated_at!: string;
}
