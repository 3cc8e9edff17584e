import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction, Socket } from 'node:net';
import {
  TargetRefusedError,
  type CheckedTarget,
  type ResolvedAddress,
  type TargetPolicy,
} from './target-policy';
import { webhookSignature } from './webhook-signature';

export interface WebhookPost {
  target: CheckedTarget;
  headers: Readonly<Record<string, string>>;
  body: string;
  /** The whole attempt: connecting, sending, and the answer's headers and body. */
  timeoutMs: number;
  /** Connecting, the TLS handshake included (counts within timeoutMs). */
  connectTimeoutMs: number;
  /** Aborts the attempt (the worker is stopping). */
  signal?: AbortSignal;
}

/** The receiver's status code, or why there is none (timeout, refused connection...). */
export type WebhookAnswer = { statusCode: number } | { error: string };

/** Resolves every host name to the address checked: the connection goes nowhere else. */
function pinnedLookup(pinned: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) {
      (callback as unknown as (error: null, addresses: ResolvedAddress[]) => void)(null, [pinned]);
    } else {
      callback(null, pinned.address, pinned.family);
    }
  };
}

/**
 * POSTs one webhook with node's own HTTP client: no connection pool (each attempt connects to the
 * address just checked), no redirects followed (a 3xx is a failed attempt, not a new target), one
 * deadline over connecting, sending and the answer's headers and body, and a shorter one for
 * connecting: a target that never completes the connection or the TLS handshake is given up early.
 */
export function postWebhook(post: WebhookPost): Promise<WebhookAnswer> {
  const { url } = post.target;
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<WebhookAnswer>((resolve) => {
    let statusCode: number | undefined;
    let settled = false;
    let connectDeadline: NodeJS.Timeout | undefined;
    const finish = (answer: WebhookAnswer) => {
      if (!settled) {
        settled = true;
        clearTimeout(deadline);
        clearTimeout(connectDeadline);
        resolve(answer);
      }
    };
    const outgoing = send(url, {
      method: 'POST',
      headers: { ...post.headers, 'content-length': String(Buffer.byteLength(post.body)) },
      agent: false,
      lookup: pinnedLookup(post.target.address),
      signal: post.signal,
    });
    const deadline = setTimeout(() => {
      // A status already read counts; a receiver that never finishes its body does not hold us.
      finish(statusCode === undefined ? { error: `timed out after ${post.timeoutMs} ms` } : { statusCode });
      outgoing.destroy();
    }, post.timeoutMs);
    // agent: false, so every request gets a socket of its own that is still connecting.
    outgoing.once('socket', (socket: Socket) => {
      if (settled) {
        return;
      }
      connectDeadline = setTimeout(() => {
        finish({ error: `could not connect within ${post.connectTimeoutMs} ms` });
        outgoing.destroy();
      }, post.connectTimeoutMs);
      socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', () =>
        clearTimeout(connectDeadline),
      );
    });
    outgoing.on('response', (response: IncomingMessage) => {
      statusCode = response.statusCode ?? 0;
      response.resume();
      response.on('end', () => finish({ statusCode: statusCode ?? 0 }));
      response.on('error', () => finish({ statusCode: statusCode ?? 0 }));
    });
    outgoing.on('error', (error: Error & { code?: string }) => {
      finish(
        statusCode === undefined
          ? { error: error.code ? `${error.code}: ${error.message}` : error.message }
          : { statusCode },
      );
    });
    outgoing.end(post.body);
  });
}

/** One signed attempt of a webhook to a subscription's url. */
export interface SignedWebhook {
  url: string;
  /** The subscription's `whsec_` signing secret, opened. */
  signingSecret: string;
  webhookId: string;
  body: string;
  timeoutMs: number;
  connectTimeoutMs: number;
  signal?: AbortSignal;
}

/**
 * Checks the url against the target policy now (its host may resolve elsewhere than when the
 * subscription was made), signs the body for this attempt (Standard Webhooks headers, the attempt's
 * timestamp) and POSTs it. A refusal or failure is an answer with `error`, never a throw.
 */
export async function sendSignedWebhook(
  policy: TargetPolicy,
  webhook: SignedWebhook,
): Promise<WebhookAnswer> {
  try {
    const target = await policy.check(webhook.url);
    const timestamp = Math.floor(Date.now() / 1000);
    return await postWebhook({
      target,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'agency-platform-webhooks/1.0',
        'webhook-id': webhook.webhookId,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': webhookSignature(
          webhook.signingSecret,
          webhook.webhookId,
          timestamp,
          webhook.body,
        ),
      },
      body: webhook.body,
      timeoutMs: webhook.timeoutMs,
      connectTimeoutMs: webhook.connectTimeoutMs,
      signal: webhook.signal,
    });
  } catch (error) {
    return {
      error:
        error instanceof TargetRefusedError
          ? `target refused: ${error.message}`
          : error instanceof Error
            ? error.message
            : String(error),
    };
  }
}
