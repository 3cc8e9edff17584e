import type { ServiceDefinition } from '@platform/runtime';
import { PlannerErrorBodyDto } from './errors/planner-error-body.dto';
import type { PlannerEnv } from './config/planner.env';
import { renderPlannerError } from './errors/planner-error.renderer';
import { PlannerModule } from './planner.module';

export const plannerService: ServiceDefinition<PlannerEnv> = {
  name: 'planner',
  title: 'Resource allocation (planner)',
  description:
    'Who is booked on which project, when and for how many hours; capacity and availability computed ' +
    "from main-api's working time and leaves.",
  version: '1.0',
  rootModule: (env) => PlannerModule.forRoot(env),
  renderError: renderPlannerError,
  errorBody: PlannerErrorBodyDto,
};
