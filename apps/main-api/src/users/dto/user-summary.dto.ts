import { ApiProperty } from '@nestjs/swagger';
import type { User } from '../user.entity';

/** A user as other services and frontends see it (the full shape grows with the users feature). */
export class UserSummaryDto {
  @ApiProperty({ example: 12 })
  id!: number;

  @ApiProperty({ example: 'Ada' })
  first_name!: string;

  @ApiProperty({ example: 'Lovelace' })
  last_name!: string;

  @ApiProperty({ example: 'ada@agency.example' })
  email!: string;

  @ApiProperty({
    example: 3,
    description: '1 C-Level, 2 Director, 3 Project Manager, 4 Collaborator, 5 Freelancer, 6 Client',
  })
  role_id!: number;

  static from(user: User): UserSummaryDto {
    return {
      id: user.id,
      first_name: user.firstName,
      last_name: user.lastName,
      email: user.email,
      role_id: user.roleId,
    };
  }
}
