/** Something with a lifecycle that must end cleanly on SIGTERM (a consumer, a publisher...). */
export interface Closeable {
  stop(): Promise<void>;
}

/**
 * On SIGTERM or SIGINT, stops `closeables` one after the other, in the order given (e.g. the
 * consumers first, so no new work starts, then the publisher and the pools), then exits: 0, or
 * 1 if a stop failed. A second signal exits at once. Returns a function that removes the handlers.
 */
export function installShutdown(closeables: readonly Closeable[], exit: (code: number) => void = (code) => process.exit(code)): () => void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return exit(1);
    stopping = true;
    void (async () => {
      let code = 0;
      for (const closeable of closeables) {
        try {
          await closeable.stop();
        } catch (error) {
          code = 1;
          process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level: 'error', logger: 'shutdown', signal, message: `stop failed: ${(error as Error).message}` })}\n`);
        }
      }
      exit(code);
    })();
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  return () => {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
  };
}
