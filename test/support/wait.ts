// Polling for tests that wait on another process (a worker, the relay, a broker).

/** Polls until `probe` returns a value, or fails after `timeoutMs`. */
export async function eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Resolves once `predicate` holds. */
export async function waitUntil(what: string, predicate: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  await eventually(what, async () => ((await predicate()) ? true : undefined), timeoutMs);
}
