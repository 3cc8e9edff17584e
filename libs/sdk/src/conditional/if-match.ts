import { dataOf, PlatformApiError, type ApiAnswer } from '../errors';

/** A resource with the ETag it was answered with: what an `If-Match` write is based on. */
export interface Tagged<Data> {
  data: Data;
  etag: string;
}

/** The `current` of a route's 412 body (the resource as it is now), from its error bodies. */
export type CurrentOf<ErrorBody> = [Extract<ErrorBody, { current: unknown }>] extends [never]
  ? unknown
  : Extract<ErrorBody, { current: unknown }>['current'];

/**
 * What an `If-Match` write came to: written (with the new ETag), or refused because the resource
 * changed since `etag` (412): then `current` is the resource as it is now and `etag` its tag, to
 * merge and write again with. Any other refusal is thrown as a PlatformApiError.
 */
export type IfMatchOutcome<Data, Current> =
  { written: true; data: Data; etag: string | null } | { written: false; current: Current; etag: string };

/** The `headers` option of an If-Match write (a type, not an interface: openapi-fetch's headers are a record). */
export type IfMatchHeader = Record<'If-Match', string>;

/**
 * Reads one resource with its ETag.
 *
 *   const { data, etag } = await readTagged(mainApi.GET('/v1/clients/{id}', { params: { path: { id } } }));
 */
export async function readTagged<Data>(answer: Promise<ApiAnswer<Data>>): Promise<Tagged<Data>> {
  const settled = await answer;
  const data = dataOf(settled);
  const etag = settled.response.headers.get('etag');
  if (etag === null) {
    throw new Error(`${settled.response.url} answered without an ETag`);
  }
  return { data, etag };
}

/**
 * Writes based on `etag`: `write` gets the `If-Match` header to send.
 *
 *   const outcome = await writeIfMatch(etag, (headers) =>
 *     mainApi.PUT('/v1/clients/{id}', { params: { path: { id } }, headers, body: { name } }));
 *   if (!outcome.written) { merge(outcome.current); retry with outcome.etag }
 */
export async function writeIfMatch<Data, ErrorBody>(
  etag: string,
  write: (headers: IfMatchHeader) => Promise<ApiAnswer<Data, ErrorBody>>,
): Promise<IfMatchOutcome<Data, CurrentOf<ErrorBody>>> {
  const answer = await write({ 'If-Match': etag });
  if (answer.response.status === 412) {
    const current = (answer.error as { current?: unknown } | undefined)?.current;
    const currentEtag = answer.response.headers.get('etag');
    if (current === undefined || currentEtag === null) {
      throw new PlatformApiError(412, answer.error, answer.response.url);
    }
    return { written: false, current: current as CurrentOf<ErrorBody>, etag: currentEtag };
  }
  return { written: true, data: dataOf(answer), etag: answer.response.headers.get('etag') };
}
