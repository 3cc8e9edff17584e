import createClient, { type Client } from 'openapi-fetch';
import type * as IntegrationsApi from './generated/integrations';
import type * as MainApi from './generated/main-api';
import type * as PlannerApi from './generated/planner';

/**
 * Clients typed by the services' committed OpenAPI documents (openapi/<service>.json, turned into
 * src/generated/ by `npm run openapi`): what a consumer generating its own client from a document
 * gets, so a route or field the document gets wrong fails to compile where it is used.
 */
export type { IntegrationsApi, MainApi, PlannerApi };

export type MainApiClient = Client<MainApi.paths>;
export type PlannerClient = Client<PlannerApi.paths>;
export type IntegrationsClient = Client<IntegrationsApi.paths>;

function options(baseUrl: string, token?: string): { baseUrl: string; headers: Record<string, string> } {
  return { baseUrl, headers: token === undefined ? {} : { authorization: `Bearer ${token}` } };
}

/** main-api at `baseUrl` (no `/v1`: the document's paths carry it), sending `token` as a bearer. */
export function createMainApiClient(baseUrl: string, token?: string): MainApiClient {
  return createClient<MainApi.paths>(options(baseUrl, token));
}

export function createPlannerClient(baseUrl: string, token?: string): PlannerClient {
  return createClient<PlannerApi.paths>(options(baseUrl, token));
}

export function createIntegrationsClient(baseUrl: string, token?: string): IntegrationsClient {
  return createClient<IntegrationsApi.paths>(options(baseUrl, token));
}
