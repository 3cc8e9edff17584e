import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { ClientAuthenticationDto } from './client-authentication.dto';

/** Form of `POST /oauth/refreshtoken`. */
export class RefreshTokenRequestDto extends ClientAuthenticationDto {
  @ApiProperty({ description: 'The refresh token of an earlier token response; single use' })
  // class-validator reports rules bottom-up; the first message per field is the one answered.
  @MaxLength(200, { message: 'refresh_token is not a valid refresh token' })
  @IsNotEmpty({ message: 'refresh_token is required' })
  @IsString({ message: 'refresh_token is required' })
  refresh_token!: string;
}
