import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { ValidatingProxy } from './validating-proxy';

export type ServiceName = 'main-api' | 'planner' | 'integrations';

const workspaceRoot = join(__dirname, '..', '..', '..');

/** The built entry point, exactly what the container image runs. */
export type EntryFile = 'main.js' | 'migrate.js' | 'provisioning/provision.cli.js';

export function entryPoint(service: ServiceName, file: EntryFile): string {
  return join(workspaceRoot, 'dist', 'apps', service, 'apps', service, 'src', file);
}

export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs a built command to completion (migrate, or a service that is expected to refuse to start). */
export function runToCompletion(
  service: ServiceName,
  file: EntryFile,
  env: NodeJS.ProcessEnv,
  timeoutMs = 30000,
  args: string[] = [],
): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [entryPoint(service, file), ...args], {
      env: { PATH: process.env.PATH, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${service} ${file} did not finish within ${timeoutMs} ms`));
    }, timeoutMs);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/**
 * A running service process, reached at `url` through a proxy that checks each of its answers
 * against the service's OpenAPI document (validating-proxy.ts). The process listens on a port of its
 * own; `port` and `url` are the proxy's, so every client (tests, the browser, the other services)
 * goes through it, and `stop()` fails with the answers that differed from the document.
 */
export class RunningService {
  private output = '';
  private readonly exited: Promise<Finished>;

  private constructor(
    readonly name: ServiceName,
    private readonly child: ChildProcess,
    private readonly proxy: ValidatingProxy,
  ) {
    child.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.exited = new Promise((resolve) =>
      child.on('exit', (code, signal) => resolve({ code, signal, stdout: this.output, stderr: '' })),
    );
  }

  /** Starts the service; `fixedPort` is where clients reach it (a restart keeps its address). */
  static async start(name: ServiceName, env: NodeJS.ProcessEnv, fixedPort?: number): Promise<RunningService> {
    const servicePort = await freePort();
    const proxy = await ValidatingProxy.start(name, fixedPort ?? 0, servicePort);
    const child = spawn(process.execPath, [entryPoint(name, 'main.js')], {
      env: {
        PATH: process.env.PATH,
        LOG_LEVEL: 'warn',
        ...env,
        PORT: String(servicePort),
        HOST: '127.0.0.1',
      },
    });
    return new RunningService(name, child, proxy);
  }

  get port(): number {
    return this.proxy.port;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get logs(): string {
    return this.output;
  }

  async waitUntilReady(timeoutMs = 30000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.child.exitCode !== null) {
        throw new Error(`${this.name} exited with ${this.child.exitCode}: ${this.output}`);
      }
      const status = await fetch(`${this.url}/health/ready`, { signal: AbortSignal.timeout(3000) })
        .then((response) => response.status)
        .catch(() => 0);
      if (status === 200) {
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(`${this.name} was not ready within ${timeoutMs} ms: ${this.output}`);
  }

  /**
   * SIGTERM, as Kubernetes sends it; resolves with how the process ended, then closes the proxy,
   * which rejects when answers differed from the document.
   */
  async stop(): Promise<Finished> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      this.child.kill('SIGTERM');
    }
    const finished = await this.exited;
    await this.proxy.close();
    return finished;
  }
}

/** Stops every service, and fails with what all their proxies found (not just the first). */
export async function stopAll(services: RunningService[]): Promise<void> {
  const failures = (await Promise.allSettled(services.map((service) => service.stop()))).flatMap((result) =>
    result.status === 'rejected'
      ? [result.reason instanceof Error ? result.reason.message : String(result.reason)]
      : [],
  );
  if (failures.length > 0) {
    throw new Error(failures.join('\n\n'));
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

const ALL_SERVICES: ServiceName[] = ['main-api', 'planner', 'integrations'];

/** Migrates the three schemas of `databaseUrl` with the built migrate commands, as the image does. */
export async function migrateAll(databaseUrl: string): Promise<void> {
  for (const service of ALL_SERVICES) {
    const migration = await runToCompletion(service, 'migrate.js', { DATABASE_URL: databaseUrl });
    if (migration.code !== 0) {
      throw new Error(`${service} migrate.js exited ${migration.code}: ${migration.stderr}`);
    }
  }
}

/** Runs `npm run provision -- <args>` (the built CLI) and answers what it prints, as `Printed`. */
export async function provision<Printed>(databaseUrl: string, args: string[]): Promise<Printed> {
  const result = await runToCompletion(
    'main-api',
    'provisioning/provision.cli.js',
    { DATABASE_URL: databaseUrl },
    30_000,
    args,
  );
  if (result.code !== 0 || result.stderr !== '') {
    throw new Error(`provision ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  }
  return JSON.parse(result.stdout) as Printed;
}

/** The three services running on one migrated database, as a deployment runs them. */
export interface RunningPlatform {
  mainApi: RunningService;
  planner: RunningService;
  integrations: RunningService;
  /** All three, for `stopAll`. */
  services: RunningService[];
}

/**
 * Starts main-api (signing with `jwtPrivateKey`), then the planner and integrations against it, each
 * with the variables every suite gives it and the suite's own `extra` ones, and waits until all three
 * are ready. A service that started before a failure is stopped before the failure is thrown.
 */
export async function startPlatform(
  databaseUrl: string,
  settings: {
    jwtPrivateKey: string;
    changeOriginKey: string;
    extra?: Partial<Record<ServiceName, Record<string, string>>>;
  },
): Promise<RunningPlatform> {
  const started: RunningService[] = [];
  try {
    const mainApi = await RunningService.start('main-api', {
      DATABASE_URL: databaseUrl,
      JWT_PRIVATE_KEY: settings.jwtPrivateKey,
      CHANGE_ORIGIN_KEY: settings.changeOriginKey,
      ...settings.extra?.['main-api'],
    });
    started.push(mainApi);
    await mainApi.waitUntilReady();
    const planner = await RunningService.start('planner', {
      DATABASE_URL: databaseUrl,
      MAIN_API_URL: mainApi.url,
      CHANGE_ORIGIN_KEY: settings.changeOriginKey,
      ...settings.extra?.planner,
    });
    started.push(planner);
    const integrations = await RunningService.start('integrations', {
      DATABASE_URL: databaseUrl,
      MAIN_API_URL: mainApi.url,
      PLANNER_URL: planner.url,
      INTEGRATIONS_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      CHANGE_ORIGIN_KEY: settings.changeOriginKey,
      ...settings.extra?.integrations,
    });
    started.push(integrations);
    await Promise.all([planner.waitUntilReady(), integrations.waitUntilReady()]);
    return { mainApi, planner, integrations, services: started };
  } catch (error) {
    await stopAll(started).catch(() => undefined);
    throw error;
  }
}
