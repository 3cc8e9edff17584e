import type { ServiceDefinition } from '@platform/runtime';
import { MainApiErrorBodyDto } from './errors/main-api-error-body.dto';
import type { MainApiEnv } from './config/main-api.env';
import { renderMainApiError } from './errors/main-api-error.renderer';
import { MainApiModule } from './main-api.module';
import { WELL_KNOWN_METADATA_PATH } from './oauth/discovery/authorization-server-metadata';

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
  openApi: {
    oauth2: {
      type: 'oauth2',
      description:
        'Tokens from this service. URLs are relative to its base URL; the discovery document ' +
        '(/.well-known/oauth-authorization-server) holds them absolute.',
      flows: {
        clientCredentials: { tokenUrl: '/v1/oauth/token', refreshUrl: '/v1/oauth/token', scopes: {} },
        authorizationCode: {
          authorizationUrl: '/v1/oauth/authorize',
          tokenUrl: '/v1/oauth/token',
          refreshUrl: '/v1/oauth/token',
          scopes: {},
        },
        password: { tokenUrl: '/v1/oauth/token', refreshUrl: '/v1/oauth/token', scopes: {} },
      },
    },
    clientSecretBasic: true,
    aliases: { [WELL_KNOWN_METADATA_PATH]: `/v1${WELL_KNOWN_METADATA_PATH}` },
  },
};
