import { OpenApiContract } from './openapi-contract';

// The contract is what every e2e test relies on to notice drift; these show it notices each kind.
describe('OpenApiContract', () => {
  let mainApi: OpenApiContract;
  let integrations: OpenApiContract;

  beforeAll(async () => {
    mainApi = await OpenApiContract.of('main-api');
    integrations = await OpenApiContract.of('integrations');
  });

  const client = {
    id: 7,
    version: 1,
    company_id: 1,
    name: 'Northwind',
    email: null,
    phone: null,
    address: null,
    tax_id: null,
    currency_id: 1,
    archived: false,
    created_at: '2026-11-22 10:15:00',
    updated_at: '2026-11-22 10:15:00',
    deleted_at: null,
  };
  const answer = (status: number, body: unknown, url = '/v1/clients/7', method = 'GET') => ({
    method,
    url,
    status,
    contentType: 'application/json; charset=utf-8',
    body: JSON.stringify(body),
  });

  it('passes an answer the document describes', () => {
    expect(mainApi.problemsWith(answer(200, client))).toEqual([]);
  });

  it('names a field the document does not list', () => {
    expect(mainApi.problemsWith(answer(200, { ...client, secret: 'x' })).join()).toMatch(
      /must NOT have additional properties.*secret/,
    );
  });

  it('names a missing field, a wrong type and a fractional id', () => {
    const { name: _name, ...nameless } = client;
    expect(mainApi.problemsWith(answer(200, nameless)).join()).toMatch(/required property 'name'/);
    expect(mainApi.problemsWith(answer(200, { ...client, archived: 'no' })).join()).toMatch(
      /archived must be boolean/,
    );
    expect(mainApi.problemsWith(answer(200, { ...client, id: 7.5 })).join()).toMatch(/id must be integer/);
  });

  it('refuses a status the operation does not declare', () => {
    expect(mainApi.problemsWith(answer(418, {})).join()).toMatch(
      /status 418 is not declared for clients_get/,
    );
  });

  it('checks error answers against the service error body, codes included', () => {
    const error = { status: 404, name: 'PlatformCustomError', code: 'AC003', message: 'No such client' };
    expect(mainApi.problemsWith(answer(404, error))).toEqual([]);
    expect(mainApi.problemsWith(answer(404, { ...error, code: 'AC999' })).join()).toMatch(
      /code must be equal to one/,
    );
  });

  it('refuses an operation the document lacks, but not an unknown route refused before routing', () => {
    expect(mainApi.problemsWith(answer(200, {}, '/v1/clients', 'PATCH')).join()).toMatch(/no operation/);
    expect(mainApi.problemsWith(answer(404, {}, '/v1/nowhere'))).toEqual([]);
  });

  it('refuses a body where none is declared, and a media type not declared', () => {
    expect(
      mainApi
        .problemsWith({
          method: 'GET',
          url: '/v1/clients/7',
          status: 200,
          contentType: 'text/plain',
          body: 'x',
        })
        .join(),
    ).toMatch(/media type text\/plain/);
  });

  it('checks an outbound webhook against the document', () => {
    const body = {
      type: 'projects.updated',
      timestamp: '2026-11-24T10:15:00.000Z',
      data: {
        entity: 'projects',
        id: 88,
        external_id: null,
        kind: 'updated',
        changed_fields: ['name'],
        cursor: '1042',
        occurred_at: '2026-11-24T10:15:00.000Z',
        project_id: 88,
      },
    };
    expect(integrations.problemsWithWebhook('change', body)).toEqual([]);
    expect(integrations.problemsWithWebhook('change', { ...body, type: 'projects.renamed' }).join()).toMatch(
      /type must be equal to one/,
    );
  });
});
