import { MayBeAbsent } from '@platform/contracts';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { ClientAuthenticationDto } from './client-authentication.dto';

export const GRANT_TYPES = ['client_credentials', 'refresh_token', 'password', 'authorization_code'] as const;
export type GrantType = (typeof GRANT_TYPES)[number];

/** `grant_type` may come in the query string (docs/spec/interfaces.md) or in the form body (RFC 6749). */
export class TokenQueryDto {
  @ApiPropertyOptional({ enum: GRANT_TYPES, example: 'client_credentials' })
  @MayBeAbsent()
  @IsString()
  @MaxLength(64)
  grant_type?: string;
}

/** Form fields of `POST /oauth/token` (application/x-www-form-urlencoded or JSON). */
export class TokenRequestDto extends ClientAuthenticationDto {
  @ApiPropertyOptional({ enum: GRANT_TYPES, description: 'Alternative to the query parameter' })
  @MayBeAbsent()
  @IsString()
  @MaxLength(64)
  grant_type?: string;

  @ApiPropertyOptional({
    description:
      'grant_type=refresh_token (RFC 6749 §6): the refresh token of an earlier token response; single use',
  })
  @MayBeAbsent()
  // class-validator reports rules bottom-up; the first message per field is the one answered.
  @MaxLength(200, { message: 'refresh_token is not a valid refresh token' })
  @IsString({ message: 'refresh_token must be a string' })
  refresh_token?: string;

  @ApiPropertyOptional({
    description: 'Password grant (legacy): the user e-mail',
    example: 'ada@agency.example',
  })
  @MayBeAbsent()
  @IsString()
  @MaxLength(254)
  username?: string;

  @ApiPropertyOptional({ description: 'Password grant (legacy): the user password' })
  @MayBeAbsent()
  @IsString()
  @MaxLength(200)
  password?: string;

  @ApiPropertyOptional({ description: 'grant_type=authorization_code: the code of the redirect' })
  @MayBeAbsent()
  @IsString()
  @MaxLength(100)
  code?: string;

  @ApiPropertyOptional({
    description: 'grant_type=authorization_code: the redirect_uri of the authorization request, exactly',
  })
  @MayBeAbsent()
  @IsString()
  @MaxLength(2000)
  redirect_uri?: string;

  @ApiPropertyOptional({
    description: 'grant_type=authorization_code: the PKCE code_verifier (43-128 characters)',
  })
  @MayBeAbsent()
  @IsString()
  @MaxLength(200)
  code_verifier?: string;

  @ApiPropertyOptional({ description: 'Ignored: scopes follow the role (docs/spec/decisions.md §2)' })
  @MayBeAbsent()
  @IsString()
  @MaxLength(500)
  scope?: string;
}

export function isGrantType(value: string | undefined): value is GrantType {
  return value !== undefined && (GRANT_TYPES as readonly string[]).includes(value);
}
