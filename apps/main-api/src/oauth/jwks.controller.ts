import { Controller, Get, Header, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public, toPublicJwk } from '@platform/auth';
import { JwksDto } from './dto/jwks.dto';
import { SIGNING_KEYS } from './oauth.tokens';
import type { SigningKeys } from './keys/signing-keys';

@ApiTags('oauth')
@Public()
@Controller('.well-known')
export class JwksController {
  private readonly document: JwksDto;

  constructor(@Inject(SIGNING_KEYS) keys: SigningKeys) {
    this.document = { keys: keys.publicKeys.map(toPublicJwk) };
  }

  @Get('jwks.json')
  // Short: verifiers must see a withdrawn key within a minute, and a caching proxy must not undo it.
  @Header('cache-control', 'public, max-age=30')
  @ApiOperation({
    summary: 'Public keys that verify access tokens (current and still-accepted retired keys)',
  })
  @ApiOkResponse({ type: JwksDto, description: 'JSON Web Key Set' })
  jwks(): JwksDto {
    return this.document;
  }
}
