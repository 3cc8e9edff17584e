import { hash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ClsServiceManager } from 'nestjs-cls';

/**
 * Conditional requests (RFC 9110 §13), one convention for the three services (README, "Conditional
 * requests"):
 * - every 200 answer to a GET carries a strong `ETag`, and a GET whose `If-None-Match` names it is
 *   answered 304 with no body (`answerConditionalReads`);
 * - a route may tag its answer itself, from the revision of what it is computed from, and answer 304
 *   before computing it (`GET /v2/availability`); that tag is kept;
 * - a resource's ETag is `"<version>-<digest>"`: its row version, which PostgreSQL bumps on every
 *   change of the row (a trigger, `enableRowVersions`), and a digest of the answer's bytes, so that a
 *   representation that also shows other rows (a project's client, its figures) gets a new tag when
 *   they change too; a list's, and any other answer's, is `"<digest>"`;
 * - `If-Match` on a resource's writes is checked against the row version, in the same transaction as
 *   the write and under the row's lock (`FeatureRepository`): the version part is what a write can
 *   conflict with; figures derived from other resources do not make an edit fail.
 */

/** Where a resource route leaves its answer's row version for the ETag (see `ConditionalResource`). */
const ROW_VERSION = Symbol('platform.rowVersion');

/**
 * The Fastify route config of a resource's read (`ConditionalRead`): its answer's `version` is read
 * from the answer in `preSerialization`, with no Nest interceptor on the hot path of reads.
 */
export const ROW_VERSIONED_READ = 'platformRowVersionedRead';

type WithRowVersion = { [ROW_VERSION]?: number };

/** Records the row version of the resource a request answers with, for its ETag. */
export function recordRowVersion(request: FastifyRequest, version: number): void {
  (request.raw as WithRowVersion)[ROW_VERSION] = version;
}

/** A strong entity tag for an answer: its row version when it is one resource's, and its digest. */
export function entityTag(payload: string | Buffer, version?: number): string {
  const digest = hash('sha1', payload, 'base64url').slice(0, 16);
  return version === undefined ? `"${digest}"` : `"${version}-${digest}"`;
}

/** A tag's row version (`"12-…"`, or a bare `"12"`), or undefined for a tag that names none. */
export function versionOfTag(tag: string): number | undefined {
  const match = /^"(\d{1,15})(?:-[A-Za-z0-9_-]*)?"$/.exec(tag.trim());
  return match ? Number(match[1]) : undefined;
}

/** The tags of an `If-Match` / `If-None-Match` field (`*`, or a list of entity tags). */
export function listedTags(field: string): string[] {
  return field
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag.length > 0);
}

/** What a write's `If-Match` asks: any current version (`*`), or one of these versions. */
export type WritePrecondition = { resource: unknown; id: string; versions: '*' | readonly number[] };

const PRECONDITION = Symbol('platform.writePrecondition');

/**
 * Sets the precondition of the request being served (its `If-Match`, read by `ConditionalResource`),
 * or clears it (undefined).
 */
export function setWritePrecondition(precondition: WritePrecondition | undefined): void {
  const cls = ClsServiceManager.getClsService();
  if (cls.isActive()) {
    cls.set(PRECONDITION, precondition);
  }
}

/**
 * The versions the request being served requires of the row `id` of `resource` (an entity class),
 * if its `If-Match` is about that row; undefined otherwise (no header, another row, no request).
 */
export function requiredVersions(resource: unknown, id: unknown): '*' | readonly number[] | undefined {
  const cls = ClsServiceManager.getClsService();
  const precondition = cls.isActive() ? cls.get<WritePrecondition | undefined>(PRECONDITION) : undefined;
  if (!precondition || precondition.resource !== resource || precondition.id !== String(id)) {
    return undefined;
  }
  return precondition.versions;
}

/**
 * A write's `If-Match` names a version the row no longer has: 412, with the service's error body and
 * the resource as it is now (`current`, added by `ConditionalResource`), so the client can merge.
 */
export class PreconditionFailedError extends Error {
  /** The current representation, and its tag, once the route has read it. */
  current?: { body: unknown; etag: string };

  constructor(readonly resource: string) {
    super(`${resource} has changed since the version named in If-Match`);
    this.name = 'PreconditionFailedError';
  }
}

/**
 * A write that must name the version it is based on (every `/v2` write) came without `If-Match`:
 * 428 (RFC 6585), so two editors can never overwrite each other unknowingly.
 */
export class PreconditionRequiredError extends Error {
  constructor(readonly resource: string) {
    super(
      `${resource}: this write requires If-Match with the ETag of the version it is based on (GET it first)`,
    );
    this.name = 'PreconditionRequiredError';
  }
}

/** Throws the 412 unless `version` satisfies what the request's `If-Match` requires of this row. */
export function assertWritePrecondition(resource: unknown, id: unknown, version: number, name: string): void {
  const required = requiredVersions(resource, id);
  if (required !== undefined && required !== '*' && !required.includes(version)) {
    throw new PreconditionFailedError(name);
  }
}

const QUIET_PATHS = /^\/(?:health\/|metrics$|docs)/;

/** Whether an `If-Match` / `If-None-Match` field names the tag (weak comparison, `*` naming any). */
export function matchesAny(field: string, etag: string): boolean {
  // Weak comparison (RFC 9110 §13.1.2): W/ is ignored; `*` matches any current representation.
  const tags = listedTags(field);
  return tags.includes('*') || tags.some((tag) => tag.replace(/^W\//, '') === etag);
}

/**
 * Fastify `onSend`: tags every 200 answer to a GET or HEAD (a resource's with its row version, see
 * `recordRowVersion`), and answers 304 with no body when `If-None-Match` names that tag. Resource
 * writes (PUT, PATCH, DELETE, and a create's 201) that recorded a version carry the tag of what
 * they answered. The
 * services' probes, metrics and docs are left as they are.
 */
export function answerConditionalReads(fastify: FastifyInstance): void {
  // A resource's read: its `version` taken from the answer before it is serialized, so the tag
  // costs no parse of the bytes (bench/README.md, round 13).
  fastify.addHook('preSerialization', (request, _reply, payload, done) => {
    const version = (payload as { version?: unknown } | null)?.version;
    if (
      typeof version === 'number' &&
      (request.routeOptions.config as unknown as Record<string, unknown> | undefined)?.[ROW_VERSIONED_READ]
    ) {
      recordRowVersion(request, version);
    }
    done(null, payload);
  });
  fastify.addHook('onSend', (request, reply, payload, done) => {
    const version = (request.raw as WithRowVersion)[ROW_VERSION];
    // A 201 that recorded the created row's version is tagged too (a v2 create answers its ETag).
    const tagged = reply.statusCode === 200 || (reply.statusCode === 201 && version !== undefined);
    if (!tagged || (typeof payload !== 'string' && !Buffer.isBuffer(payload))) {
      done(null, payload);
      return;
    }
    const read = request.method === 'GET' || request.method === 'HEAD';
    if ((!read && version === undefined) || QUIET_PATHS.test(request.url)) {
      done(null, payload);
      return;
    }
    // A route that tagged its answer itself (from the revision of its inputs) keeps its tag.
    const own = reply.getHeader('etag');
    const etag = typeof own === 'string' ? own : entityTag(payload, version);
    void reply.header('etag', etag);
    const ifNoneMatch = request.headers['if-none-match'];
    if (read && typeof ifNoneMatch === 'string' && matchesAny(ifNoneMatch, etag)) {
      notModified(reply);
      done(null, '');
      return;
    }
    done(null, payload);
  });
}

function notModified(reply: FastifyReply): void {
  void reply.code(304);
  reply.removeHeader('content-type');
  reply.removeHeader('content-length');
}
