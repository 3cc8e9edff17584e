import { ForbiddenException, type ExecutionContext } from '@nestjs/common';
import { COMPANY_BODY_MAX_NODES, CompanyBodyGuard } from './company-body.guard';
import type { Principal } from './principal';

const caller: Principal = { subject: 'user:1', companyId: 1, roleId: 1, userId: 1, tokenId: 'j1', epoch: 0 };

function contextFor(body: unknown, user: Principal | undefined): ExecutionContext {
  return { switchToHttp: () => ({ getRequest: () => ({ user, body }) }) } as unknown as ExecutionContext;
}

/** `levels` objects nested through `child`, with `leaf` innermost: built in a loop, not recursively. */
function nested(levels: number, leaf: object): object {
  let body: object = leaf;
  for (let level = 0; level < levels; level += 1) {
    body = { child: body };
  }
  return body;
}

describe('CompanyBodyGuard', () => {
  const guard = new CompanyBodyGuard();
  const check = (body: unknown) => () => guard.canActivate(contextFor(body, caller));

  it('lets through a body naming no company, no body, and requests without a caller', () => {
    expect(check({ name: 'Launch', hours: 3, tags: ['a', 'b'] })()).toBe(true);
    expect(check(undefined)()).toBe(true);
    expect(check('text')()).toBe(true);
    // A public route: nobody to compare with.
    expect(guard.canActivate(contextFor({ companyId: 2 }, undefined))).toBe(true);
  });

  it('lets through the caller’s own company anywhere, as a number or a string', () => {
    expect(
      check({
        companyId: 1,
        company_id: '1',
        oldAllocation: { company_id: 1 },
        items: [{ companyId: '1' }, [{ company_id: 1 }]],
        a: { b: { c: { companyId: 1 } } },
        note: null,
        empty: { companyId: null },
      })(),
    ).toBe(true);
  });

  it.each([
    ['at the top level', { companyId: 2 }, 'companyId'],
    ['in a direct child object', { oldAllocation: { company_id: 2 } }, 'company_id'],
    ['three objects down', { a: { b: { c: { companyId: 2 } } } }, 'companyId'],
    ['in an array item', { items: [{ company_id: 2 }] }, 'company_id'],
    ['in an array of arrays', { batches: [[{ companyId: 1 }, { companyId: 2 }]] }, 'companyId'],
    ['in an item of a body that is an array', [{ name: 'x' }, { company_id: 2 }], 'company_id'],
    ['behind an array inside an object inside an array', [{ rows: [{ x: { companyId: 2 } }] }], 'companyId'],
    ['as a string id', { items: [{ company_id: '2' }] }, 'company_id'],
    ['as a value that is no id at all', { a: { companyId: { id: 1 } } }, 'companyId'],
  ])('refuses another company %s with 403', (_where, body, field) => {
    expect(check(body)).toThrow(ForbiddenException);
    expect(check(body)).toThrow(`${field} does not match the company of your access token`);
  });

  it('finds another company 5,000 levels down, without overflowing the stack', () => {
    expect(check(nested(5_000, { company_id: 1 }))()).toBe(true);
    expect(check(nested(5_000, { company_id: 2 }))).toThrow(ForbiddenException);
  });

  it(`stops walking after ${COMPANY_BODY_MAX_NODES} objects, so no body shape makes a request expensive`, () => {
    const started = Date.now();

    // Far deeper than any call stack, and beyond the bound: the walk ends quietly at the bound.
    expect(check(nested(200_000, { companyId: 2 }))()).toBe(true);
    expect(check({ items: Array.from({ length: 50_000 }, () => ({ companyId: 1 })) })()).toBe(true);
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
