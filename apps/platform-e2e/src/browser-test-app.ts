import { createServer, type Server } from 'node:http';

/** Where the test page's script sends its calls: the URLs a browser app is configured with. */
export interface BrowserAppConfig {
  clientId: string;
  mainApiUrl: string;
  plannerUrl: string;
  integrationsUrl: string;
  /** External id of the client the page creates through integrations and then reads back. */
  externalClientId: string;
}

/** What the page's script reports in `window.flowResult`: each step's HTTP status and what it read. */
export interface FlowResult {
  /** The step that threw (a refused CORS preflight is a TypeError "Failed to fetch"), if any. */
  failed?: { step: string; error: string };
  statuses: Record<string, number>;
  /** The bodies of the answers that were not 2xx, by step (makes a failure readable). */
  refusals: Record<string, unknown>;
  stateMatched?: boolean;
  projectNames?: string[];
  allocations?: { userId: number; from: string; to: string; allocatedHours: number; capacity: number }[];
  /** The client integrations created in main-api (its platform id in `id`), and its mapping read back. */
  mappedClient?: { id: number; name: string };
  mapping?: unknown;
  refreshRotated?: boolean;
  refreshAfterLogout?: { status: number; error?: unknown };
}

/**
 * A browser app as a frontend team would write it, with no library: a "Sign in" button that starts
 * the authorization-code flow with PKCE (S256), and a /callback that checks `state`, exchanges the
 * code, then uses the three services with fetch. It runs in the page, so every call is cross-origin.
 */
const SCRIPT = String.raw`
const config = JSON.parse(document.getElementById('config').textContent);
const result = { statuses: {}, refusals: {} };
const main = config.mainApiUrl + '/v1';

function base64url(bytes) {
  return btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
const randomString = () => base64url(crypto.getRandomValues(new Uint8Array(32)));
const redirectUri = location.origin + '/callback';

async function signIn() {
  const verifier = randomString();
  const state = randomString();
  sessionStorage.setItem('pkce', JSON.stringify({ verifier, state }));
  const challenge = base64url(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
  const query = new URLSearchParams({
    response_type: 'code', client_id: config.clientId, redirect_uri: redirectUri,
    code_challenge: challenge, code_challenge_method: 'S256', state,
  });
  location.assign(main + '/oauth/authorize?' + query);
}

let step = 'start';
async function call(name, url, options = {}) {
  step = name;
  const headers = {};
  let body;
  if (options.token) headers.authorization = 'Bearer ' + options.token;
  if (options.json) { headers['content-type'] = 'application/json'; body = JSON.stringify(options.json); }
  if (options.form) { body = new URLSearchParams(options.form); }
  const response = await fetch(url, { method: options.method || (body ? 'POST' : 'GET'), headers, body });
  result.statuses[name] = response.status;
  const text = await response.text();
  const parsed = text ? JSON.parse(text) : undefined;
  if (!response.ok) result.refusals[name] = parsed;
  return parsed;
}

async function callback() {
  const query = new URLSearchParams(location.search);
  const saved = JSON.parse(sessionStorage.getItem('pkce'));
  result.stateMatched = query.get('state') === saved.state;
  const tokenForm = (fields) => ({ form: { client_id: config.clientId, ...fields } });

  let tokens = await call('exchange', main + '/oauth/token', tokenForm({
    grant_type: 'authorization_code', code: query.get('code'), redirect_uri: redirectUri, code_verifier: saved.verifier,
  }));
  const token = tokens.access_token;
  const me = await call('me', main + '/users/me', { token });
  const claims = JSON.parse(atob(token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/')));
  await call('working week', main + '/working-time/users/' + me.id, { method: 'PUT', token, json: {
    entries: [1, 2, 3, 4, 5].map((day) => ({ day_of_week: day, daily_hours: 8, start_at: '09:00:00', end_at: '17:00:00' })),
  } });
  const client = await call('create client', main + '/clients', { token, json: { name: 'Browser client' } });
  const project = await call('create project', main + '/projects', { token, json: { name: 'Browser project', client_id: client.id } });
  const projects = await call('list projects', main + '/projects', { token });
  result.projectNames = projects.data.map((listed) => listed.name);

  await call('book allocation', config.plannerUrl + '/allocation/saveAllocation', { token, json: {
    userId: me.id, companyId: claims.company_id, resource: { typeId: 'Project', entityId: project.id },
    from: '2027-01-04', to: '2027-01-08', assignedByUserId: me.id, allocatedHours: 16,
  } });
  const allocations = await call('read allocations', config.plannerUrl + '/allocation/getAllocations/' + project.id, { token });
  result.allocations = allocations.users.flatMap((user) => user.allocations.map((allocation) => ({
    userId: user.userId, from: allocation.from, to: allocation.to, allocatedHours: allocation.allocatedHours, capacity: allocation.capacity,
  })));

  const integrations = config.integrationsUrl + '/v2/integrations';
  result.mappedClient = await call('create mapping', integrations + '/clients', { token, json: {
    metadata: { source: 'JIRA' }, id: config.externalClientId, name: 'Browser Foods',
  } });

  const refreshed = await call('refresh', main + '/oauth/token', tokenForm({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token }));
  result.refreshRotated = refreshed.refresh_token !== tokens.refresh_token && refreshed.access_token !== token;
  tokens = refreshed;
  const mapping = await call('read mapping', integrations + '/clients/' + config.externalClientId + '?source=JIRA', { token: tokens.access_token });
  result.mapping = mapping;

  await call('logout', main + '/oauth/revoke', tokenForm({ token: tokens.refresh_token, token_type_hint: 'refresh_token' }));
  // What an app asks on its next load: is this token still good? main-api answers from its database.
  await call('after logout', main + '/oauth/token-status', { token: tokens.access_token });
  const again = await call('refresh after logout', main + '/oauth/token', tokenForm({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token }));
  result.refreshAfterLogout = { status: result.statuses['refresh after logout'], error: again && again.error };
}

function report() {
  document.getElementById('result').textContent = JSON.stringify(result, null, 2);
  window.flowResult = result;
}

if (location.pathname === '/callback') {
  callback().catch((error) => { result.failed = { step, error: String(error) }; }).finally(report);
} else {
  document.getElementById('sign-in').addEventListener('click', () => {
    signIn().catch((error) => { result.failed = { step: 'sign in', error: String(error) }; report(); });
  });
}
`;

function html(config: BrowserAppConfig): string {
  // "<" escaped so no value can close the script element.
  const json = JSON.stringify(config).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Browser app</title></head>
<body>
<h1>Browser app</h1>
<button id="sign-in" type="button">Sign in</button>
<pre id="result"></pre>
<script type="application/json" id="config">${json}</script>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

/** The test page on its own origin (http://127.0.0.1:<port>), serving `/` and `/callback`. */
export class BrowserTestApp {
  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  static async start(port: number, config: () => BrowserAppConfig): Promise<BrowserTestApp> {
    const server = createServer((request, response) => {
      const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
      if (request.method !== 'GET' || (path !== '/' && path !== '/callback')) {
        response.writeHead(404).end();
        return;
      }
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      response.end(html(config()));
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    return new BrowserTestApp(server, `http://127.0.0.1:${port}`);
  }

  get redirectUri(): string {
    return `${this.origin}/callback`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
