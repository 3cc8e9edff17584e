import {
  applyDecorators,
  Injectable,
  SetMetadata,
  UseInterceptors,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { ModuleRef, Reflector } from '@nestjs/core';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiHeader, ApiResponse } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { catchError, from, map, mergeMap, throwError, type Observable } from 'rxjs';
import {
  entityTag,
  listedTags,
  PreconditionFailedError,
  PreconditionRequiredError,
  recordRowVersion,
  ROW_VERSIONED_READ,
  setWritePrecondition,
  versionOfTag,
} from './conditional-requests';

export interface ConditionalResourceOptions {
  /** The route parameter holding the resource's id (default `id`). */
  param?: string;
  /**
   * How a 412 reads the resource as it is now: the controller's method that takes its id (default
   * `get`), or a function of the controller, the route's parameters and the request.
   */
  read?: string | ReadCurrent;
  /**
   * `required`: a write without `If-Match` is refused with 428 (every `/v2` write); `optional`
   * (default): without it the write is unconditional, as on the interface's routes.
   */
  ifMatch?: 'optional' | 'required';
}

// The controller is whichever class the route is on: its methods are what the read calls.
type ReadCurrent = (
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  controller: any,
  params: Record<string, string>,
  request: FastifyRequest,
) => Promise<unknown>;

interface ResourceRoute extends Required<ConditionalResourceOptions> {
  resource: object;
  name: string;
}

const RESOURCE_ROUTE = 'platform:conditionalResource';

/**
 * A resource's read (`GET /x/{id}`): its ETag carries the answer's row `version`, read from the
 * payload in the `onSend` hook (a Fastify route config, no interceptor: reads are the hot path).
 */
export function ConditionalRead() {
  return RouteConfig({ [ROW_VERSIONED_READ]: true });
}

/**
 * A write of one resource (an entity with a row `version`): `If-Match` is a precondition the
 * resource's repository checks under the row's lock, a 412 shows the resource as it is now, and the
 * answer carries the ETag of the version written. Optional on the interface's routes: without it a
 * write is unconditional, as the interface describes.
 */
export function ConditionalResource(resource: object, options: ConditionalResourceOptions = {}) {
  const required = options.ifMatch === 'required';
  const route: ResourceRoute = {
    resource,
    name: (resource as { name?: string }).name ?? 'resource',
    param: options.param ?? 'id',
    read: options.read ?? 'get',
    ifMatch: options.ifMatch ?? 'optional',
  };
  return applyDecorators(
    SetMetadata(RESOURCE_ROUTE, route),
    UseInterceptors(ConditionalResourceInterceptor),
    ApiHeader({
      name: 'If-Match',
      required,
      description:
        'The ETag of the version this change is based on (or `*`). When the resource has ' +
        'changed since, nothing is written and the answer is 412 with the resource as it is now (`current`).' +
        (required ? ' Required: without it the answer is 428.' : ''),
    }),
    ApiResponse({
      status: 412,
      description:
        'If-Match names a version the resource no longer has: the error body, with `current` (the resource now) and its ETag',
    }),
    ...(required
      ? [
          ApiResponse({
            status: 428,
            description:
              'No If-Match: this write must name the version it is based on (PreconditionRequiredError)',
          }),
        ]
      : []),
  );
}

@Injectable()
export class ConditionalResourceInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly modules: ModuleRef,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const route = this.reflector.get<ResourceRoute>(RESOURCE_ROUTE, context.getHandler());
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const id = (request.params as Record<string, string>)[route.param];
    const ifMatch = request.headers['if-match'];
    const writes = request.method !== 'GET' && request.method !== 'HEAD';
    if (writes && route.ifMatch === 'required' && typeof ifMatch !== 'string') {
      throw new PreconditionRequiredError(route.name);
    }
    if (writes && typeof ifMatch === 'string') {
      const tags = listedTags(ifMatch);
      setWritePrecondition({
        resource: route.resource,
        id,
        // A tag that names no version (weak, malformed) matches none: the write is refused (412).
        versions: tags.includes('*')
          ? '*'
          : tags.map(versionOfTag).filter((version): version is number => version !== undefined),
      });
    }
    return next.handle().pipe(
      map((answer: unknown) => {
        const version = (answer as { version?: unknown } | null)?.version;
        if (typeof version === 'number') {
          recordRowVersion(request, version);
        }
        return answer;
      }),
      catchError((error: unknown) => {
        return error instanceof PreconditionFailedError
          ? from(this.current(context, route, id)).pipe(
              mergeMap((current) => {
                error.current = current;
                return throwError(() => error);
              }),
            )
          : throwError(() => error);
      }),
    );
  }

  /** The resource as it is now, read by the controller's own read route, and its tag. */
  private async current(
    context: ExecutionContext,
    route: ResourceRoute,
    id: string,
  ): Promise<{ body: unknown; etag: string }> {
    const controller = this.modules.get<unknown, Record<string, (id: number) => Promise<unknown>>>(
      context.getClass(),
      { strict: false },
    );
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const params = request.params as Record<string, string>;
    // The read is no write: the request's If-Match is not its precondition.
    setWritePrecondition(undefined);
    const body =
      typeof route.read === 'function'
        ? await route.read(controller, params, request)
        : await controller[route.read].call(controller, Number(id));
    const version = (body as { version?: unknown }).version;
    return { body, etag: entityTag(JSON.stringify(body), typeof version === 'number' ? version : undefined) };
  }
}
