import { dataOf, type ApiAnswer } from '../errors';

/** A list's answer to `?limit=` or `?cursor=` (README "Lists" in the services' conventions). */
export interface CursorPage<Item> {
  data: Item[];
  next_cursor: string | null;
  has_more: boolean;
}

/** The cursor-page member of a list's documented answer (which also has page/perPage bodies). */
export type CursorPageOf<Data> = Extract<Data, CursorPage<unknown>>;

/** The item type of a list's cursor pages. */
export type CursorItemOf<Data> = CursorPageOf<Data> extends CursorPage<infer Item> ? Item : never;

/**
 * Asks for one page: `cursor` is undefined for the first, then each page's `next_cursor`. The
 * function holds the query (limit, sort, filters, fields), so every page is asked with the same one,
 * as the services require of a cursor.
 */
export type PageRequest<Data> = (cursor: string | undefined) => Promise<ApiAnswer<Data>>;

/**
 * Every cursor page of a list, in order, until `has_more` is false. A refused page is thrown as a
 * PlatformApiError; an answer that is not a cursor page (no `limit` sent) is thrown too.
 *
 *   for await (const page of cursorPages((cursor) =>
 *     mainApi.GET('/v1/clients', { params: { query: { limit: 100, cursor } } }))) { ... }
 */
export async function* cursorPages<Data>(
  requestPage: PageRequest<Data>,
): AsyncGenerator<CursorPageOf<Data>, void, undefined> {
  let cursor: string | undefined;
  for (;;) {
    const page = dataOf(await requestPage(cursor));
    if (!isCursorPage(page)) {
      throw new Error('the list did not answer a cursor page: send `limit` in the query');
    }
    yield page as CursorPageOf<Data>;
    if (!page.has_more || page.next_cursor === null) {
      return;
    }
    // A cursor that does not move would page forever.
    if (page.next_cursor === cursor) {
      throw new Error(`the list answered its own cursor again (${cursor})`);
    }
    cursor = page.next_cursor;
  }
}

/** Every item of a list, page after page (cursorPages), for `for await`. */
export async function* cursorItems<Data>(
  requestPage: PageRequest<Data>,
): AsyncGenerator<CursorItemOf<Data>, void, undefined> {
  for await (const page of cursorPages(requestPage)) {
    yield* page.data as CursorItemOf<Data>[];
  }
}

function isCursorPage(body: unknown): body is CursorPage<unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return false;
  }
  const { data, next_cursor: next, has_more: more } = body as Record<string, unknown>;
  return Array.isArray(data) && typeof more === 'boolean' && (next === null || typeof next === 'string');
}
