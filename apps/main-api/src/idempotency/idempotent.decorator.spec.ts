// The app's own import order first: entities refer to each other in cycles that only resolve so.
import '../main-api.module';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { RequestMethod } from '@nestjs/common';
import { INTERCEPTORS_METADATA, METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { IS_PUBLIC_KEY } from '@platform/auth';
import { IdempotencyInterceptor } from './idempotency.interceptor';

type Handler = (...args: unknown[]) => unknown;

function controllerFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) {
      return controllerFiles(path);
    }
    return entry.name.endsWith('.controller.ts') ? [path] : [];
  });
}

/** Every POST handler of main-api's controllers, by `Controller.method`. */
async function postHandlers(): Promise<Map<string, { handler: Handler; controller: object }>> {
  const handlers = new Map<string, { handler: Handler; controller: object }>();
  for (const file of controllerFiles(join(__dirname, '..'))) {
    const exported = (await import(file)) as Record<string, unknown>;
    for (const controller of Object.values(exported)) {
      if (typeof controller !== 'function' || Reflect.getMetadata(PATH_METADATA, controller) === undefined) {
        continue;
      }
      const prototype = controller.prototype as Record<string, unknown>;
      for (const name of Object.getOwnPropertyNames(prototype)) {
        const handler = prototype[name];
        if (
          typeof handler === 'function' &&
          Reflect.getMetadata(METHOD_METADATA, handler) === RequestMethod.POST
        ) {
          handlers.set(`${controller.name}.${name}`, { handler: handler as Handler, controller });
        }
      }
    }
  }
  return handlers;
}

describe('@Idempotent()', () => {
  it('is on every authenticated POST of main-api, and on no public one', async () => {
    const handlers = await postHandlers();
    const missing: string[] = [];
    const onPublic: string[] = [];
    for (const [name, { handler, controller }] of handlers) {
      const isPublic =
        Reflect.getMetadata(IS_PUBLIC_KEY, handler) === true ||
        Reflect.getMetadata(IS_PUBLIC_KEY, controller) === true;
      const interceptors = (Reflect.getMetadata(INTERCEPTORS_METADATA, handler) ?? []) as unknown[];
      const idempotent = interceptors.includes(IdempotencyInterceptor);
      if (!isPublic && !idempotent) {
        missing.push(name);
      }
      if (isPublic && idempotent) {
        onPublic.push(name);
      }
    }
    // The walk itself must have found the routes (22 authenticated POSTs and the two OAuth ones today).
    expect(handlers.size).toBeGreaterThanOrEqual(24);
    expect(handlers.has('ProjectsController.create')).toBe(true);
    expect(missing).toEqual([]);
    expect(onPublic).toEqual([]);
  });
});
