import { Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { sendOAuthError } from '../oauth-exception.filter';
import { OAuthError } from '../oauth.errors';
import { AuthorizationServerMetadata, WELL_KNOWN_METADATA_PATH } from './authorization-server-metadata';

/**
 * The metadata at the root path, where RFC 8414 §3 looks for it when the issuer is main-api's origin.
 * A Fastify route rather than a controller: every controller sits under the `/v1` prefix, whose
 * exceptions belong to the shared bootstrap (libs/runtime). Same document as the `/v1` route.
 */
@Injectable()
export class RootMetadataRoute implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly metadata: AuthorizationServerMetadata,
  ) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.get(WELL_KNOWN_METADATA_PATH, (request, reply) => {
      try {
        const { document, cacheControl } = this.metadata.answerFor(request);
        return reply.header('cache-control', cacheControl).send(document);
      } catch (error) {
        if (error instanceof OAuthError) {
          return sendOAuthError(reply, error);
        }
        throw error;
      }
    });
  }
}
