import type { Server } from "bun";

/**
 * A floor server's exit on SIGINT/SIGTERM: stop listening at once, close what it opened (a
 * database), exit 0, so the bench that started it sees a clean stop.
 */
export function exitOnSignal(server: Server<unknown>, ...close: (() => void)[]): void {
  const stop = () => {
    server.stop(true);
    for (const c of close) c();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}
