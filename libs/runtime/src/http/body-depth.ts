import { RequestValidationError } from '../errors/request-validation.error';

/**
 * How deeply a JSON body may nest. No request of the three services nests beyond a handful of
 * levels; thousands of levels (a 10 KB body) overflowed the stack of the recursive walks that
 * follow parsing (the NUL check, class-transformer), a 500 on every JSON route (issue 20).
 */
export const MAX_BODY_DEPTH = 32;

/** Whether `value` nests objects or arrays deeper than `maxDepth`, walked without recursion. */
export function nestsDeeperThan(value: unknown, maxDepth: number): boolean {
  const pending: { node: unknown; depth: number }[] = [{ node: value, depth: 0 }];
  while (pending.length > 0) {
    const { node, depth } = pending.pop() as { node: unknown; depth: number };
    if (typeof node !== 'object' || node === null) {
      continue;
    }
    if (depth >= maxDepth) {
      return true;
    }
    for (const child of Object.values(node)) {
      if (typeof child === 'object' && child !== null) {
        pending.push({ node: child, depth: depth + 1 });
      }
    }
  }
  return false;
}

/** The 400 of a body nested too deeply, in the service's validation error body. */
export function bodyTooDeepError(): RequestValidationError {
  return new RequestValidationError([
    {
      field: 'body',
      validation: 'maxDepth',
      message: `The request body nests objects or arrays deeper than ${MAX_BODY_DEPTH} levels`,
    },
  ]);
}
