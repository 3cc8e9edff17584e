/** Polls until `probe` answers something truthy, or fails naming what it waited for. */
export async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined | false | null> | T | undefined | false | null,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) {
      return value;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
