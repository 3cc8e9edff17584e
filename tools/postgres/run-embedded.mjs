// Runs the embedded PostgreSQL in its own process for the local start: started detached, so a
// terminal Ctrl-C reaches the services first and the database stops last, on SIGTERM from the
// launcher, or when the launcher dies (its stdin pipe closes), so no server is left behind.
// Usage: node run-embedded.mjs <dataDir> <port>; prints one JSON line {"url": ...} when ready.
import { startEmbeddedPostgres } from './embedded-postgres.mjs';

const [dataDir, port] = process.argv.slice(2);
const server = await startEmbeddedPostgres({ dataDir, port: Number(port) }).catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);

let stopping = false;
async function stop() {
  if (stopping) {
    return;
  }
  stopping = true;
  await server.stop();
  process.exit(0);
}
process.stdin.on('end', () => void stop());
process.stdin.resume();
process.on('SIGTERM', () => void stop());
