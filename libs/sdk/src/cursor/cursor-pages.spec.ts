import { createMainApiClient } from '@platform/api-clients';
import { FakeHttpServer } from '@platform/testing';
import { PlatformApiError } from '../errors';
import { cursorItems, cursorPages } from './cursor-pages';

const NAMES = ['Acme', 'Globex', 'Initech', 'Umbrella', 'Wayne'];

describe('cursorItems and cursorPages (a list answering ?limit=&cursor=)', () => {
  let server: FakeHttpServer;

  beforeAll(async () => {
    // Cursor = the index to start at; pages of `limit`; the filter must come with every page.
    server = await FakeHttpServer.start((request, response) => {
      const query = new URL(request.url, 'http://list').searchParams;
      const json = (status: number, body: unknown): void =>
        void response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (query.get('filters') !== '{"archived":false}') {
        json(400, { status: 400, code: 'AC002', message: 'a cursor belongs to its query' });
        return;
      }
      if (query.get('limit') === null) {
        json(200, { total: '5', perPage: 20, page: 1, lastPage: 1, data: [] });
        return;
      }
      const start = Number(query.get('cursor') ?? '0');
      const end = start + Number(query.get('limit'));
      const data = NAMES.slice(start, end).map((name, offset) => ({ id: start + offset + 1, name }));
      json(200, { data, next_cursor: end < NAMES.length ? String(end) : null, has_more: end < NAMES.length });
    });
  });

  afterAll(() => server.stop());

  const mainApi = () => createMainApiClient(server.url);

  it('yields every item once, following next_cursor with the same query', async () => {
    const names: string[] = [];
    for await (const client of cursorItems((cursor) =>
      mainApi().GET('/v1/clients', {
        params: { query: { limit: 2, cursor, filters: '{"archived":false}' } },
      }),
    )) {
      names.push(client.name ?? '(no name)');
    }

    expect(names).toEqual(NAMES);
    expect(
      server.requests.map((request) => new URL(request.url, 'http://list').searchParams.get('cursor')),
    ).toEqual([null, '2', '4']);
  });

  it('yields pages for a caller that keeps its place', async () => {
    const pages = [];
    for await (const page of cursorPages((cursor) =>
      mainApi().GET('/v1/clients', {
        params: { query: { limit: 3, cursor, filters: '{"archived":false}' } },
      }),
    )) {
      pages.push([page.data.length, page.next_cursor, page.has_more]);
    }

    expect(pages).toEqual([
      [3, '3', true],
      [2, null, false],
    ]);
  });

  it('throws a refused page, and a list answered without a cursor page', async () => {
    const refused = cursorItems((cursor) =>
      mainApi().GET('/v1/clients', { params: { query: { limit: 2, cursor } } }),
    );
    await expect(refused.next()).rejects.toThrow(PlatformApiError);

    const offsetPaged = cursorItems(() =>
      mainApi().GET('/v1/clients', { params: { query: { filters: '{"archived":false}' } } }),
    );
    await expect(offsetPaged.next()).rejects.toThrow('send `limit`');
  });
});
