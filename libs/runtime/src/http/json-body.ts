import type { FastifyBodyParser, FastifyInstance } from 'fastify';

/**
 * The JSON body parser of every service: Fastify's own (its prototype-poisoning rules, its 400 for
 * malformed JSON), except that an empty body is no body rather than a 400. Clients that send
 * `Content-Type: application/json` on every request, as the integrations interface tells them to,
 * would otherwise get "Body cannot be empty" on each DELETE (issue 33); a route that needs a body
 * still answers its own validation error when none comes.
 */
export function jsonBodyParser(fastify: FastifyInstance): FastifyBodyParser<Buffer> {
  const { onProtoPoisoning, onConstructorPoisoning } = fastify.initialConfig;
  const parse = fastify.getDefaultJsonParser(onProtoPoisoning ?? 'error', onConstructorPoisoning ?? 'error');
  return (request, body, done) => {
    if (body.length === 0) {
      done(null, undefined);
      return;
    }
    // What secure-json-parse would do with the Buffer itself; the declared parser takes text.
    void parse(request, body.toString('utf8'), done);
  };
}
