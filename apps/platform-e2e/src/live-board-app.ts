import { createServer, type Server } from 'node:http';

/** What one board page is configured with: who it is signed in as and where the planner is. */
export interface LiveBoardConfig {
  accessToken: string;
  /** Where the page books and asks for its stream ticket. */
  plannerUrl: string;
  /** Where the page opens its EventSource (the planner, or a proxy in front of it). */
  streamBaseUrl: string;
}

/** One entry of `window.events`: each change, and what happened to the stream around it. */
export type BoardEvent =
  | {
      type: 'change';
      lastEventId: string;
      data: { cursor: string; entity: string; kind: string; id: string };
    }
  | { type: 'end' | 'gone'; data: unknown }
  | { type: 'open' }
  | { type: 'error'; readyState: number };

/** What `window.book` answers: the status of POST /v2/allocations and its body. */
export interface Booking {
  status: number;
  body: { id?: string } & Record<string, unknown>;
}

/**
 * A planning board as a frontend team would write it from the README's snippet, with no library: a
 * stream ticket, then `new EventSource(url)`; every message goes into `window.events` and onto the
 * page. It never closes the stream itself, not even on `end: revoked`: what the browser does next
 * (reconnect with Last-Event-ID, or give up on a 401) is then the service's doing alone.
 */
const SCRIPT = String.raw`
const config = JSON.parse(document.getElementById('config').textContent);
const bearer = { authorization: 'Bearer ' + config.accessToken, 'content-type': 'application/json' };
window.events = [];

function show(text) {
  const item = document.createElement('li');
  item.textContent = text;
  document.getElementById('changes').append(item);
}

async function follow() {
  const answer = await fetch(config.plannerUrl + '/v2/events/stream-tickets', { method: 'POST', headers: bearer, body: '{}' });
  if (!answer.ok) throw new Error('stream ticket: ' + answer.status + ' ' + (await answer.text()));
  const { stream_url } = await answer.json();
  const source = new EventSource(new URL(stream_url, config.streamBaseUrl));
  window.source = source;
  source.onopen = () => window.events.push({ type: 'open' });
  source.onmessage = (message) => {
    const change = JSON.parse(message.data);
    window.events.push({ type: 'change', lastEventId: message.lastEventId, data: change });
    show(change.entity + ' ' + change.kind + ' ' + change.id);
  };
  for (const type of ['end', 'gone']) {
    source.addEventListener(type, (message) => window.events.push({ type, data: JSON.parse(message.data) }));
  }
  source.onerror = () => window.events.push({ type: 'error', readyState: source.readyState });
}

window.book = async (allocation) => {
  const answer = await fetch(config.plannerUrl + '/v2/allocations', { method: 'POST', headers: bearer, body: JSON.stringify(allocation) });
  return { status: answer.status, body: await answer.json() };
};

window.following = follow().then(() => 'following', (error) => String(error));
`;

function html(config: LiveBoardConfig): string {
  // "<" escaped so no value can close the script element.
  const json = JSON.stringify(config).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Planning board</title></head>
<body>
<h1>Planning board</h1>
<ol id="changes"></ol>
<script type="application/json" id="config">${json}</script>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

/** The board page on its own origin: `/boards/<seat>` serves the page configured for that seat. */
export class LiveBoardApp {
  private readonly seats = new Map<string, LiveBoardConfig>();

  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {
    server.on('request', (request, response) => {
      const seat = /^\/boards\/([a-z]+)$/.exec(new URL(request.url ?? '/', origin).pathname)?.[1];
      const config = seat === undefined ? undefined : this.seats.get(seat);
      if (request.method !== 'GET' || !config) {
        response.writeHead(404).end();
        return;
      }
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      response.end(html(config));
    });
  }

  static async start(): Promise<LiveBoardApp> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    return new LiveBoardApp(server, `http://127.0.0.1:${port}`);
  }

  /** The address of a board page for `seat`, configured with `config`. */
  boardFor(seat: string, config: LiveBoardConfig): string {
    this.seats.set(seat, config);
    return `${this.origin}/boards/${seat}`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
