import { ApiProperty } from '@nestjs/swagger';
import { DeletedResponseOf } from './deleted-response';

/** A user as integrations answers it: main-api's user (decisions §8), timestamps in ISO 8601 UTC. */
export class UserResponseDto {
  @ApiProperty({ type: 'integer', example: 12, description: 'Platform id' })
  id!: number;

  @ApiProperty({ type: String, example: 'Ada' })
  first_name!: string;

  @ApiProperty({ type: String, example: 'Lovelace' })
  last_name!: string;

  @ApiProperty({ type: String, example: 'ada@agency.example' })
  email!: string;

  @ApiProperty({
    type: 'integer',
    enum: [1, 2, 3, 4, 5, 6],
    example: 4,
    description: '1 C-Level, 2 Director, 3 Project Manager, 4 Collaborator, 5 Freelancer, 6 Client',
  })
  role_id!: number;

  @ApiProperty({ type: 'integer', nullable: true, example: 5, description: 'Platform (unified) position id' })
  user_position_id!: number | null;

  @ApiProperty({ type: String, nullable: true, example: 'Designer' })
  position_name!: string | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    example: 2,
    description: "Platform id of the position's category",
  })
  category_id!: number | null;

  @ApiProperty({ type: String, nullable: true, example: 'Creative' })
  category_name!: string | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    example: null,
    description: 'For role 6 (Client): the client whose projects the user may read',
  })
  client_id!: number | null;

  @ApiProperty({ type: String, example: '' })
  picture!: string;

  @ApiProperty({ type: Boolean, example: false })
  hidden!: boolean;

  @ApiProperty({ type: Boolean, example: false })
  is_deleted!: boolean;

  @ApiProperty({ type: 'integer', isArray: true, example: [1, 4], description: 'Label ids' })
  labels!: number[];

  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-22T10:15:00.000Z' })
  created_at!: string;
}

/** The answer to a delete: the deleted user, or only its id when main-api no longer had it. */
export class DeletedUserResponseDto extends DeletedResponseOf(UserResponseDto) {}
