import 'reflect-metadata';
// Writes the integrations OpenAPI document (npm run openapi); needs no database and no main-api.
import { randomBytes } from 'node:crypto';
import { exportOpenApiDocument } from '@platform/runtime';
import { IntegrationsEnv } from './config/integrations.env';
import { integrationsService } from './integrations.service';

void exportOpenApiDocument(
  integrationsService,
  IntegrationsEnv,
  {
    MAIN_API_URL: 'http://main-api:3000',
    INTEGRATIONS_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    CHANGE_ORIGIN_KEY: randomBytes(32).toString('base64'),
  },
  process.argv[2] ?? 'openapi/integrations.json',
);
