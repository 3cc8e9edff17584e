import 'reflect-metadata';
// Writes main-api's OpenAPI document (npm run openapi); needs no database. The signing key is a
// throw-away one: the document does not depend on it.
import { generateKeyPairSync } from 'node:crypto';
import { exportOpenApiDocument } from '@platform/runtime';
import { MainApiEnv } from './config/main-api.env';
import { mainApiService } from './main-api.service';

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
void exportOpenApiDocument(
  mainApiService,
  MainApiEnv,
  { JWT_PRIVATE_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() },
  process.argv[2] ?? 'openapi/main-api.json',
);
