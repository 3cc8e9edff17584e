import { ApiProperty } from '@nestjs/swagger';

/** The token response of docs/spec/interfaces.md, exactly these four fields. */
export class TokenResponseDto {
  @ApiProperty({ description: 'JWT (RS256) accepted by main-api, planner and integrations' })
  access_token!: string;

  @ApiProperty({ example: 'Bearer' })
  token_type!: 'Bearer';

  @ApiProperty({ type: 'integer', example: 3600, description: 'Seconds until the access token expires' })
  expires_in!: number;

  @ApiProperty({ description: 'Opaque, single use; exchange it at /oauth/refreshtoken' })
  refresh_token!: string;
}
