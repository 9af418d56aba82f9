import type { Env } from "../env.ts";
import { repackWithBitmaps } from "../../git/maintenance.ts";

/** How long after the last push a repository is repacked: bursts of pushes cost one repack. */
const DEBOUNCE_MS = 30_000;

/**
 * Background repacking after pushes, one repository at a time, debounced per repository.
 * In-process on purpose: if the process stops, the next push or the daily pass catches up.
 */
export class Housekeeper {
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private chain: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly log: Env["log"],
    private readonly delayMs = DEBOUNCE_MS,
  ) {}

  schedule(gitDir: string): void {
    if (this.stopped) return;
    clearTimeout(this.timers.get(gitDir));
    const timer = setTimeout(() => {
      this.timers.delete(gitDir);
      this.chain = this.chain.then(() => this.run(gitDir));
    }, this.delayMs);
    timer.unref?.();
    this.timers.set(gitDir, timer);
  }

  /** Runs now, in the same queue (the daily pass and tests). */
  runNow(gitDir: string): Promise<void> {
    this.chain = this.chain.then(() => this.run(gitDir));
    return this.chain;
  }

  private async run(gitDir: string): Promise<void> {
    try {
      await repackWithBitmaps(gitDir);
    } catch (err) {
      this.log.warn("repack failed", { repo: gitDir, error: (err as Error).message });
    }
  }

  /** Cancels pending repacks and waits for a running one. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    await this.chain;
  }
}

export function scheduleHousekeeping(env: Env, gitDir: string): void {
  env.housekeeper.schedule(gitDir);
}
