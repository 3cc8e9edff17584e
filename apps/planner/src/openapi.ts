import 'reflect-metadata';
// Writes the planner's OpenAPI document (npm run openapi); needs no database and no main-api.
import { exportOpenApiDocument } from '@platform/runtime';
import { PlannerEnv } from './config/planner.env';
import { plannerService } from './planner.service';

void exportOpenApiDocument(
  plannerService,
  PlannerEnv,
  { MAIN_API_URL: 'http://main-api:3000' },
  process.argv[2] ?? 'openapi/planner.json',
);
