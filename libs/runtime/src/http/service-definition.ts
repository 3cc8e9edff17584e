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
  /** API prefix (docs/spec/decisions.md §1); health, metrics and docs stay outside it. */
  globalPrefix?: string;
  /** Keep each JSON request's raw bytes as `request.rawBody` (signed webhooks need them). */
  rawBody?: boolean;
  rootModule(env: Env): DynamicModule;
  renderError: ErrorRenderer;
  /** The DTO of the service's error body, named by the error answers of its OpenAPI document. */
  errorBody: Type;
  openApi?: {
    /** Schemas the document holds without a route naming them (e.g. webhook payloads). */
    extraModels?: Type[];
    /** The OAuth 2 security scheme of the service that issues tokens. */
    oauth2?: { type: 'oauth2'; description?: string; flows: Record<string, unknown> };
    /** The token endpoints take client_secret_basic. */
    clientSecretBasic?: boolean;
    /** Paths served outside the prefix with the same operation as a documented one (alias → path). */
    aliases?: Record<string, string>;
    /** OpenAPI 3.1 `webhooks`: the requests this service sends. */
    webhooks?: Record<string, unknown>;
  };
}
