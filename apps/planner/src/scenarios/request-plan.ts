import { Injectable } from '@nestjs/common';
import { ClsService } from 'nestjs-cls';
import { Plan } from './plan';

const PLAN_KEY = Symbol('planner:plan');

/**
 * The plan of the current request: the live one, unless a v2 route was called with `scenario_id`
 * and its controller entered that scenario (ScenariosService.enter). Read by the repositories of
 * the plan's tables, as the tenant scope reads the request's company, so the services' rules are
 * written once for both.
 */
@Injectable()
export class RequestPlan {
  constructor(private readonly cls: ClsService) {}

  set(plan: Plan): void {
    this.cls.set(PLAN_KEY, plan);
  }

  /**
   * `work` in `plan`, then the request's plan again: a read of both plans in one request (a
   * scenario's diff). One at a time: `work` must be awaited before the next `within`.
   */
  async within<T>(plan: Plan, work: () => Promise<T>): Promise<T> {
    const before = this.get();
    this.set(plan);
    try {
      return await work();
    } finally {
      this.set(before);
    }
  }

  get(): Plan {
    return (this.cls.isActive() ? this.cls.get<Plan | undefined>(PLAN_KEY) : undefined) ?? Plan.LIVE;
  }
}
