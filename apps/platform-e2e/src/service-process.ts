import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';

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

/** A running service process on its own port. */
export class RunningService {
  private output = '';
  private readonly exited: Promise<Finished>;

  private constructor(
    readonly name: ServiceName,
    readonly port: number,
    private readonly child: ChildProcess,
  ) {
    child.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.exited = new Promise((resolve) =>
      child.on('exit', (code, signal) => resolve({ code, signal, stdout: this.output, stderr: '' })),
    );
  }

  static async start(name: ServiceName, env: NodeJS.ProcessEnv, fixedPort?: number): Promise<RunningService> {
    const port = fixedPort ?? (await freePort());
    const child = spawn(process.execPath, [entryPoint(name, 'main.js')], {
      env: { PATH: process.env.PATH, LOG_LEVEL: 'warn', ...env, PORT: String(port), HOST: '127.0.0.1' },
    });
    return new RunningService(name, port, child);
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

  /** SIGTERM, as Kubernetes sends it; resolves with how the process ended. */
  async stop(): Promise<Finished> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      this.child.kill('SIGTERM');
    }
    return this.exited;
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
