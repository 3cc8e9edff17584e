import type { DynamicModule, Type } from '@nestjs/common';
import type { BaseServiceEnv } from '../config/base-service.env';
import type { ErrorRenderer } from '../errors/platform-exception.filter';

/** What differs between the three services; everything else is bootstrapped the same way. */
export interface ServiceDefinition<Env extends BaseServiceEnv> {
  /** Short name used in logs and metrics: `main-api`, `planner`, `integrations`. */
  name: string;
  /** OpenAPI document. */
  title: string;
  description: string;
  version: string;
  /** API prefix (decisions §1); health, metrics and docs stay outside it. */
  globalPrefix?: string;
  /** Keep each JSON request's raw bytes as `request.rawBody` (signed webhooks need them). */
  rawBody?: boolean;
  rootModule(env: Env): DynamicModule;
  renderError: ErrorRenderer;
  /** The DTO of the service's error body, named by the 401/403 answers of its OpenAPI document. */
  errorBody: Type;
}
