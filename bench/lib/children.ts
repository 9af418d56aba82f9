import { rmSync } from "node:fs";

export type Child = ReturnType<typeof Bun.spawn>;

/**
 * Every process a benchmark starts and every temporary directory it makes: all go when the script
 * ends, also on an error or Ctrl-C, so no server outlives the run (`keep` leaves the directories).
 */
export class Cleanup {
  private readonly children = new Set<Child>();
  private readonly dirs: string[] = [];
  private done = false;

  constructor(private readonly keep = false) {
    process.on("exit", () => this.now());
    for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
      process.on(sig, () => {
        console.error(`\n${sig}: stopping children`);
        this.now();
        process.exit(130);
      });
    }
  }

  /** Kills `p` on the way out, unless it has exited by then. */
  track(p: Child): Child {
    this.children.add(p);
    p.exited.then(() => this.children.delete(p));
    return p;
  }

  /** Removes `path` on the way out. */
  dir(path: string): string {
    this.dirs.push(path);
    return path;
  }

  now(): void {
    if (this.done) return;
    this.done = true;
    for (const p of this.children) {
      try {
        p.kill("SIGKILL");
      } catch {}
    }
    if (!this.keep) for (const d of this.dirs) rmSync(d, { recursive: true, force: true });
  }
}

/** SIGTERM, then SIGKILL after `graceMs`; the exit code (null when killed by a signal). */
export async function stop(p: Child, graceMs = 3000): Promise<number | null> {
  if (p.exitCode !== null || p.signalCode !== null) return p.exitCode;
  p.kill("SIGTERM");
  const done = await Promise.race([p.exited.then(() => true), Bun.sleep(graceMs).then(() => false)]);
  if (!done) {
    p.kill("SIGKILL");
    await p.exited;
  }
  return p.exitCode;
}
