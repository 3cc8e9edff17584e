import type { FastifyInstance } from 'fastify';

/** Where Swagger UI is served (`/docs`, its assets under `/docs/`) and the document (`/docs-json`). */
export const DOCS_ROUTE = 'docs';

function isDocsPath(url: string): boolean {
  const path = url.split('?', 1)[0];
  return path === `/${DOCS_ROUTE}` || path.startsWith(`/${DOCS_ROUTE}/`) || path === `/${DOCS_ROUTE}-json`;
}

/**
 * Swagger UI is a page that acts with whatever token is typed into it: another site must not load it
 * in a frame and lure a click through it (clickjacking, issue 33). `frame-ancestors 'none'` for
 * browsers that read CSP, `X-Frame-Options: DENY` for the others. Only the framing directive: the
 * page's own scripts and styles are Swagger UI's business. Added on request, so every answer under
 * /docs carries it, the static assets and errors included.
 */
export function refuseFramingOfDocs(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    if (isDocsPath(request.url)) {
      void reply.header('content-security-policy', "frame-ancestors 'none'");
      void reply.header('x-frame-options', 'DENY');
    }
    done();
  });
}
