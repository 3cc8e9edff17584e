import {
  Inject,
  Injectable,
  type CanActivate,
  type ExecutionContext,
  type OnModuleInit,
} from '@nestjs/common';
import { CHANGE_ORIGIN_HEADER, CHANGE_ORIGIN_SIGNATURE_HEADER, isChangeOriginSignedBy } from '@platform/auth';
import { INTEGRATION_SOURCES, type IntegrationSource } from '@platform/contracts';
import { RequestValidationError } from '@platform/runtime';
import type { FastifyRequest } from 'fastify';
import { ClsService } from 'nestjs-cls';
import { DataSource, type QueryRunner } from 'typeorm';
import { MAIN_API_ENV, type MainApiEnv } from '../config/main-api.env';
import { AccessDeniedError } from '../errors/main-api.errors';

const ORIGIN_KEY = Symbol('platform:change-origin');

/**
 * `X-Change-Origin: <source>` marks the changes of a request as coming in from that integration
 * source, so the change feed does not echo them back to its subscriptions. That hides a change from
 * those subscribers, so it counts only from the integrations service: with a valid
 * `X-Change-Origin-Signature` (CHANGE_ORIGIN_KEY, libs/auth). Anyone else sending it gets a 403.
 *
 * A guard that refuses only a malformed or unsigned header. It is registered after the
 * authentication guards, so it runs after them, and unlike a global interceptor it puts no rxjs
 * pipeline on every request (bench/README.md, round 3).
 */
@Injectable()
export class ChangeOriginGuard implements CanActivate {
  constructor(
    private readonly cls: ClsService,
    @Inject(MAIN_API_ENV) private readonly env: MainApiEnv,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const headers = context.switchToHttp().getRequest<FastifyRequest>().headers;
    const header = headers[CHANGE_ORIGIN_HEADER];
    if (header !== undefined) {
      const origin = Array.isArray(header) ? header[0] : header;
      if (!(INTEGRATION_SOURCES as readonly string[]).includes(origin)) {
        throw new RequestValidationError([
          {
            field: 'X-Change-Origin',
            validation: 'isIn',
            message: `X-Change-Origin must be one of ${INTEGRATION_SOURCES.join(', ')}`,
          },
        ]);
      }
      const signature = headers[CHANGE_ORIGIN_SIGNATURE_HEADER];
      const authorization = headers.authorization;
      if (
        this.env.CHANGE_ORIGIN_KEY === undefined ||
        typeof signature !== 'string' ||
        typeof authorization !== 'string' ||
        !isChangeOriginSignedBy(this.env.CHANGE_ORIGIN_KEY, origin, authorization, signature)
      ) {
        throw new AccessDeniedError('X-Change-Origin is reserved to the integrations service');
      }
      this.cls.set(ORIGIN_KEY, origin);
    }
    return true;
  }
}

interface SessionConnection {
  query(text: string, values?: unknown[]): Promise<unknown>;
}

/**
 * Carries the request's change origin to the database triggers that write the change feed: every
 * connection a request with an origin uses gets the `platform.change_origin` session setting for as
 * long as the request holds it, and loses it before it goes back to the pool. Requests without an
 * origin (nearly all) pay nothing.
 */
@Injectable()
export class ChangeOriginBinding implements OnModuleInit {
  constructor(
    private readonly dataSource: DataSource,
    private readonly cls: ClsService,
  ) {}

  onModuleInit(): void {
    const driver = this.dataSource.driver;
    const createQueryRunner = driver.createQueryRunner.bind(driver);
    driver.createQueryRunner = (mode) => {
      const runner = createQueryRunner(mode);
      const origin = this.cls.isActive()
        ? this.cls.get<IntegrationSource | undefined>(ORIGIN_KEY)
        : undefined;
      return origin ? withOrigin(runner, origin) : runner;
    };
  }
}

function withOrigin(runner: QueryRunner, origin: IntegrationSource): QueryRunner {
  const connect = runner.connect.bind(runner);
  const release = runner.release.bind(runner);
  let connected: Promise<SessionConnection> | undefined;
  runner.connect = () =>
    (connected ??= connect().then(async (connection: SessionConnection) => {
      await connection.query("SELECT set_config('platform.change_origin', $1, false)", [origin]);
      return connection;
    }));
  runner.release = async () => {
    if (connected && !runner.isReleased) {
      try {
        await (await connected).query('RESET platform.change_origin');
      } catch (error) {
        // A connection that cannot be reset is not given back to the pool for someone else.
        await (
          runner as unknown as { releasePostgresConnection(error: unknown): Promise<void> }
        ).releasePostgresConnection(error);
        return;
      }
    }
    await release();
  };
  return runner;
}
