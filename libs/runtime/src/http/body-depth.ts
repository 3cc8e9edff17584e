import type { FieldError } from '../errors/failure';
import { RequestValidationError } from '../errors/request-validation.error';

/**
 * How deeply a JSON body may nest. No request of the three services nests beyond a handful of
 * levels; thousands of levels (a 10 KB body) overflowed the stack of the recursive walks that
 * follow parsing (the NUL check, class-transformer), a 500 on every JSON route (issue 20).
 */
export const MAX_BODY_DEPTH = 32;

/**
 * How many items any array of a JSON body may hold, checked before validation looks at one item: the
 * largest list a request carries is a rate card's 1,000 lines, and 50,000 empty objects once cost
 * 150,001 field errors and a 27 MB answer (issue 20). DTOs declare tighter limits of their own.
 */
export const MAX_BODY_ARRAY_ITEMS = 1_000;

interface Pending {
  node: unknown;
  depth: number;
  path: string;
}

/**
 * The first way `body` is too deep or too wide to validate, walked without recursion and without
 * looking inside an array that is already too long; undefined when it has none.
 */
export function bodyShapeProblem(
  body: unknown,
  limits = { maxDepth: MAX_BODY_DEPTH, maxArrayItems: MAX_BODY_ARRAY_ITEMS },
): FieldError | undefined {
  const pending: Pending[] = [{ node: body, depth: 0, path: '' }];
  while (pending.length > 0) {
    const { node, depth, path } = pending.pop() as Pending;
    if (typeof node !== 'object' || node === null) {
      continue;
    }
    if (depth >= limits.maxDepth) {
      return {
        field: 'body',
        validation: 'maxDepth',
        message: `The request body nests objects or arrays deeper than ${limits.maxDepth} levels`,
      };
    }
    if (Array.isArray(node) && node.length > limits.maxArrayItems) {
      const field = path || 'body';
      return {
        field,
        validation: 'arrayMaxSize',
        message: `${field} must contain no more than ${limits.maxArrayItems} elements`,
      };
    }
    for (const [key, child] of Object.entries(node)) {
      if (typeof child === 'object' && child !== null) {
        pending.push({ node: child, depth: depth + 1, path: path ? `${path}.${key}` : key });
      }
    }
  }
  return undefined;
}

/** The 400 of a body too deep or too wide, in the service's validation error body. */
export function bodyShapeError(body: unknown): RequestValidationError | undefined {
  const problem = bodyShapeProblem(body);
  return problem ? new RequestValidationError([problem]) : undefined;
}
