import { MayBeAbsent } from '@platform/contracts';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';

export const GRANT_TYPES = ['client_credentials', 'password'] as const;
export type GrantType = (typeof GRANT_TYPES)[number];

/** `grant_type` may come in the query string (interfaces.md) or in the form body (RFC 6749). */
export class TokenQueryDto {
  @ApiPropertyOptional({ enum: GRANT_TYPES, example: 'client_credentials' })
  @MayBeAbsent()
  @IsString()
  @MaxLength(64)
  grant_type?: string;
}

/** Form fields of `POST /oauth/token` (application/x-www-form-urlencoded or JSON). */
export class TokenRequestDto {
  @ApiPropertyOptional({ enum: GRANT_TYPES, description: 'Alternative to the query parameter' })
  @MayBeAbsent()
  @IsString()
  @MaxLength(64)
  grant_type?: string;

  @ApiPropertyOptional({ description: 'Password grant: the user e-mail', example: 'ada@agency.example' })
  @MayBeAbsent()
  @IsString()
  @MaxLength(254)
  username?: string;

  @ApiPropertyOptional({ description: 'Password grant: the user password' })
  @MayBeAbsent()
  @IsString()
  @MaxLength(200)
  password?: string;

  @ApiPropertyOptional({ description: 'Ignored: scopes follow the role (decisions §2)' })
  @MayBeAbsent()
  @IsString()
  @MaxLength(500)
  scope?: string;
}

export function isGrantType(value: string | undefined): value is GrantType {
  return value !== undefined && (GRANT_TYPES as readonly string[]).includes(value);
}
