/** Codes of the integrations error body `{error, message, code}` (docs/spec/interfaces.md, docs/spec/decisions.md §4). */
export enum IntegrationsErrorCode {
  Generic = 'ZC001',
  Validation = 'ZC002',
  ApiRequest = 'ZC003',
  Query = 'ZC004',
  ExternalRequest = 'ZC005',
}
