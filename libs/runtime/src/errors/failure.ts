/** One problem with one request field, as every service reports it. */
export interface FieldError {
  field: string;
  validation: string;
  message: string;
}

/**
 * The kinds of failure every service must answer. Each app's error renderer switches over this union
 * exhaustively (lint enforces it), so a new kind cannot be forgotten by one service.
 */
export type FailureKind =
  | 'validation'
  | 'malformed_request'
  | 'unsupported_media_type'
  | 'payload_too_large'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  /** Well-formed but refused by a business rule (422). */
  | 'unprocessable'
  | 'rate_limited'
  /** A write's `If-Match` names a version the resource no longer has (412). */
  | 'precondition_failed'
  /** A write that must be conditional came without `If-Match` (428). */
  | 'precondition_required'
  /** A batch operation that did not run: what it refers to failed (424). */
  | 'failed_dependency'
  | 'upstream_unavailable'
  /** This replica is shutting down (503): the client retries, and reaches another one. */
  | 'shutting_down'
  | 'database'
  | 'internal';

export interface NormalizedFailure {
  kind: FailureKind;
  status: number;
  /** Safe to show a client: never a stack, SQL text or driver detail. */
  message: string;
  fieldErrors?: FieldError[];
  retryAfterSeconds?: number;
}
