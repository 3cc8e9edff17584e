import { MainApiErrorBodyDto } from '@platform/contracts';
import type { ServiceDefinition } from '@platform/runtime';
import type { MainApiEnv } from './config/main-api.env';
import { renderMainApiError } from './errors/main-api-error.renderer';
import { MainApiModule } from './main-api.module';

export const mainApiService: ServiceDefinition<MainApiEnv> = {
  name: 'main-api',
  title: 'Main API',
  description:
    'Companies, users, clients, brands, products, projects, tasks, hours, fees, contracts, transactions, ' +
    'costs, estimates, leaves and working time; issues the OAuth tokens the other services accept.',
  version: '1.0',
  globalPrefix: 'v1',
  rootModule: (env) => MainApiModule.forRoot(env),
  renderError: renderMainApiError,
  errorBody: MainApiErrorBodyDto,
};
