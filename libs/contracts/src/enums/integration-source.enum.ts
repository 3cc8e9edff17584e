/**
 * The twelve `metadata.source` tokens of the integrations service (docs/spec/decisions.md §5). This is the only
 * list: validation, OpenAPI and webhook routing all read it from here.
 */
export enum IntegrationSource {
  Jira = 'JIRA',
  Hubspot = 'HUBSPOT',
  GoogleAds = 'GOOGLE_ADS',
  Quickbooks = 'QUICKBOOKS',
  Zapier = 'ZAPIER',
  Okta = 'OKTA',
  Zoho = 'ZOHO',
  Github = 'GITHUB',
  Slack = 'SLACK',
  Custom = 'CUSTOM',
  Sap = 'SAP',
  Consulting = 'CONSULTING',
}

export const INTEGRATION_SOURCES: readonly IntegrationSource[] = Object.values(IntegrationSource);
