import type { NestFastifyApplication } from '@nestjs/platform-fastify';

interface OpenApiPaths {
  paths: Record<string, Record<string, unknown>>;
}

/**
 * Every operation in the service's OpenAPI document answers 401 without a token, except the ones
 * listed as public: auth by default, proven for each route rather than trusted (STYLE §3).
 */
export function itAuthenticatesEveryRoute(options: {
  getApp(): NestFastifyApplication;
  publicOperations: string[];
  unauthorizedStatus?: number;
}): void {
  it('answers 401 without a token on every documented operation that is not public', async () => {
    const app = options.getApp();
    const document = (await app.inject({ method: 'GET', url: '/docs-json' })).json<OpenApiPaths>();
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const open: string[] = [];
    for (const operation of operations.filter((candidate) => !options.publicOperations.includes(candidate))) {
      const [method, path] = operation.split(' ');
      const url = path.replace(/\{[^}]+\}/g, '1');
      const response = await app.inject({ method: method as 'GET', url });
      if (response.statusCode !== (options.unauthorizedStatus ?? 401)) {
        open.push(`${operation} answered ${response.statusCode}`);
      }
    }

    expect(operations.length).toBeGreaterThan(options.publicOperations.length);
    expect(open).toEqual([]);
  });
}
