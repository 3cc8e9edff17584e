import { ApiProperty } from '@nestjs/swagger';
import type { OAuthErrorCode } from '../oauth.errors';

/** RFC 6749 §5.2: how the token endpoints answer a refused request, instead of PlatformCustomError. */
export class OAuthErrorBodyDto {
  @ApiProperty({
    enum: ['invalid_request', 'invalid_client', 'invalid_grant', 'unsupported_grant_type'],
    example: 'invalid_grant',
  })
  error!: OAuthErrorCode;

  @ApiProperty({ example: 'The refresh token is unknown, expired or already used' })
  error_description!: string;
}
