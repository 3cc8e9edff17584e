import { Controller, Get, Req, Res, UseFilters } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '@platform/auth';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AuthorizationServerMetadataDto } from '../dto/authorization-server-metadata.dto';
import { OAuthErrorBodyDto } from '../dto/oauth-error.dto';
import { OAuthExceptionFilter } from '../oauth-exception.filter';
import { AuthorizationServerMetadata } from './authorization-server-metadata';

@ApiTags('oauth')
@Public()
@UseFilters(OAuthExceptionFilter)
@Controller('.well-known')
export class DiscoveryController {
  constructor(private readonly metadata: AuthorizationServerMetadata) {}

  @Get('oauth-authorization-server')
  @ApiOperation({
    summary:
      'Authorization server metadata (RFC 8414), also served at /.well-known/oauth-authorization-server',
    description:
      'Discovery for standard OAuth libraries. The issuer is JWT_ISSUER; when it is main-api\'s public URL, RFC 8414 discovery from it finds the same document at the root path (openid-client: discovery(new URL(issuer), clientId, secret, auth, { algorithm: "oauth2" })).',
  })
  @ApiOkResponse({ type: AuthorizationServerMetadataDto, description: 'The metadata document' })
  @ApiBadRequestResponse({
    type: OAuthErrorBodyDto,
    description: 'RFC 6749 error: the Host header is no host (only while JWT_ISSUER is not a URL)',
  })
  document(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): AuthorizationServerMetadataDto {
    const { document, cacheControl } = this.metadata.answerFor(request);
    void reply.header('cache-control', cacheControl);
    return document;
  }
}
