export default async function globalTeardown() {
  const server = globalThis.__EMBEDDED_POSTGRES__;
  if (server) {
    await server.stop();
    delete process.env.TEST_DATABASE_URL;
  }
}
