import type { ServerResponse } from 'node:http';
import { FakeHttpServer, type RecordedRequest } from '@platform/testing';

/**
 * Sits between integrations and the real main-api and forwards everything, unless a test steps in:
 * `answerInstead` answers a request itself (true when it did: a stalled or failing route),
 * `failBefore` answers 503 without reaching main-api, and `loseAnswer` lets main-api do the work
 * but answers 503 (the answer lost on the way back).
 */
export class MainApiProxy {
  answerInstead?: (request: RecordedRequest, response: ServerResponse) => boolean;
  failBefore?: (request: RecordedRequest) => boolean;
  loseAnswer?: (request: RecordedRequest) => boolean;

  private constructor(
    readonly server: FakeHttpServer,
    private readonly target: string,
  ) {}

  static async start(target: string): Promise<MainApiProxy> {
    const started: { proxy?: MainApiProxy } = {};
    const server = await FakeHttpServer.start(
      (request, response) => void started.proxy?.forward(request, response),
    );
    started.proxy = new MainApiProxy(server, target);
    return started.proxy;
  }

  /** How many requests to this path (query included) reached the proxy. */
  asked(url: string): number {
    return this.server.requests.filter((request) => request.url === url).length;
  }

  private async forward(request: RecordedRequest, response: ServerResponse): Promise<void> {
    if (this.answerInstead?.(request, response)) {
      return;
    }
    if (this.failBefore?.(request)) {
      response.writeHead(503).end();
      return;
    }
    const headers = Object.fromEntries(
      Object.entries(request.headers).filter(
        (entry): entry is [string, string] => typeof entry[1] === 'string' && entry[0] !== 'host',
      ),
    );
    const answer = await fetch(`${this.target}${request.url}`, {
      method: request.method,
      headers,
      body: request.body.length > 0 ? request.body : undefined,
    });
    const text = await answer.text();
    if (this.loseAnswer?.(request)) {
      response.writeHead(503).end();
      return;
    }
    response.writeHead(answer.status, { 'content-type': 'application/json' }).end(text);
  }
}
