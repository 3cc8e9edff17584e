// The image's HEALTHCHECK: GET <path> on the service's own port, PORT or else the app's default
// (the same defaults as the apps' configuration), so a bare `docker run` of planner or integrations
// probes 3001 or 3002, not 3000.
const DEFAULT_PORTS = { 'main-api': 3000, planner: 3001, integrations: 3002 };
const port = process.env.PORT || DEFAULT_PORTS[process.env.APP];
const path = process.argv[2] || '/health/live';

fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(2500) }).then(
  (response) => process.exit(response.ok ? 0 : 1),
  () => process.exit(1),
);
