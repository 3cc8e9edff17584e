import { MayBeAbsent } from '@platform/contracts';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';

/**
 * `client_secret_post` (RFC 6749 §2.3.1): the client's credentials in the form instead of HTTP
 * Basic, for the forms that take client authentication. One method per request, never both.
 */
export abstract class ClientAuthenticationDto {
  @ApiPropertyOptional({
    description: 'client_secret_post: the API key (instead of HTTP Basic)',
    example: 'ak_0123456789abcdef01234567',
  })
  @MayBeAbsent()
  @IsString()
  @MaxLength(200)
  client_id?: string;

  @ApiPropertyOptional({ description: 'client_secret_post: the client secret (instead of HTTP Basic)' })
  @MayBeAbsent()
  @IsString()
  @MaxLength(500)
  client_secret?: string;
}
