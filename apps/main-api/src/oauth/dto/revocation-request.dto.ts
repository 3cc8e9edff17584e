import { MayBeAbsent } from '@platform/contracts';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { ClientAuthenticationDto } from './client-authentication.dto';

/** Form of `POST /oauth/revoke` (RFC 7009 §2.1). */
export class RevocationRequestDto extends ClientAuthenticationDto {
  @ApiProperty({
    description:
      'A refresh token, or an access token: either ends its whole login (the refresh-token family and the access tokens issued with it)',
  })
  // An access token is a few hundred characters; anything longer is no token of ours.
  @MaxLength(4096, { message: 'token is not a valid token' })
  @IsNotEmpty({ message: 'token is required' })
  @IsString({ message: 'token is required' })
  token!: string;

  @ApiPropertyOptional({
    enum: ['refresh_token', 'access_token'],
    description: 'Optional; the server recognises the kind of token by itself (RFC 7009 §2.1)',
  })
  @MayBeAbsent()
  @IsString()
  @MaxLength(64)
  token_type_hint?: string;
}
